import { describe, expect, it } from "vitest";
import { clientAddress, trustedProxies } from "./client-address";
import { isProxyEntry } from "../config/env-schema";

const lb = trustedProxies(["127.0.0.1", "10.1.0.0/16"]);

describe("clientAddress", () => {
  it("is the peer when no balancer is trusted, whatever the client forwards", () => {
    expect(clientAddress("203.0.113.9", "198.51.100.1", undefined)).toBe("203.0.113.9");
    expect(clientAddress("::ffff:203.0.113.9", undefined, undefined)).toBe("203.0.113.9");
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted balancer", () => {
    expect(clientAddress("203.0.113.9", "127.0.0.1", lb)).toBe("203.0.113.9");
  });

  it("takes the address the trusted balancer appended, not what the client wrote before it", () => {
    // The client sent "X-Forwarded-For: 198.51.100.7"; nginx appended the address it saw.
    expect(clientAddress("127.0.0.1", "198.51.100.7, 203.0.113.9", lb)).toBe("203.0.113.9");
    expect(clientAddress("::ffff:127.0.0.1", ["198.51.100.7", "203.0.113.9"], lb)).toBe("203.0.113.9");
  });

  it("walks through trusted proxies in a chain", () => {
    expect(clientAddress("127.0.0.1", "203.0.113.9, 10.1.4.2", lb)).toBe("203.0.113.9");
  });

  it("stops at an entry that is not an address", () => {
    expect(clientAddress("127.0.0.1", "203.0.113.9, garbage, 10.1.4.2", lb)).toBe("10.1.4.2");
    expect(clientAddress("127.0.0.1", "garbage", lb)).toBe("127.0.0.1");
  });

  it("is the peer when a trusted balancer forwards nothing", () => {
    expect(clientAddress("127.0.0.1", undefined, lb)).toBe("127.0.0.1");
  });
});

describe("isProxyEntry", () => {
  it("accepts addresses and CIDR ranges only", () => {
    for (const ok of ["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"]) expect(isProxyEntry(ok)).toBe(true);
    for (const bad of ["", "localhost", "10.0.0.0/33", "10.0.0.0/8/1", "::1/129", "1.2.3.4/x"])
      expect(isProxyEntry(bad)).toBe(false);
  });
});
