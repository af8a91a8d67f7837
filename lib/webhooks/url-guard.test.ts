import { describe, expect, it } from "vitest";
import { isDomainError } from "../domain/errors";
import { checkWebhookUrl, isForbiddenAddress, parseWebhookUrl, UrlRefused } from "./url-guard";

describe("isForbiddenAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "224.0.0.1",
    "239.255.255.250",
    "255.255.255.255",
    "198.18.0.1",
    "198.19.255.255",
    "192.0.0.8",
    "192.0.2.10",
    "198.51.100.7",
    "203.0.113.200",
    "240.0.0.1",
    "::",
    "::1",
    "[::1]",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:a9fe:a9fe",
    "::127.0.0.1",
    "[::127.0.0.1]",
    "::0.0.0.1",
    "::ffff:0:127.0.0.1",
    "::ffff:0:7f00:1",
    "::ffff:0:c0a8:101",
    "[::ffff:0:127.0.0.1]",
    "::ffff:0:0",
    "64:ff9b::a00:1",
    "64:ff9b::127.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::808:808",
    "64:ff9b:1:ff::7f00:1",
    "2002:7f00:1::",
    "2002:a00:1:1::1",
    "2002:c0a8:101::1",
    "2001::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "2001:2::1",
    "2001:2:0:ffff::1",
    "3fff::1",
    "3fff:fff:ffff::1",
    "100::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "ff02::1",
    "2001:db8::1",
    "2001:DB8:ffff::1",
    "not an address",
    "",
  ])("refuses %s", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "192.169.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "::ffff:0:808:808",
    "::8.8.8.8",
    "198.17.255.255",
    "198.20.0.1",
    "192.0.3.1",
    "203.0.114.1",
    "2001:4860:4860::8888",
    "2001:3::1",
    "4000::1",
  ])("allows %s", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe("checkWebhookUrl", () => {
  const refused = async (url: string, allow = false) => {
    const err = await checkWebhookUrl(url, allow).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err, url).toBeInstanceOf(UrlRefused);
    // The API tells it as a ValidationError of `url` (its envelope message names the field, as before).
    expect(isDomainError(err) && [err.kind, err.message, err.fields]).toEqual([
      "invalid",
      "Invalid parameters: url.",
      { url: (err as UrlRefused).reason },
    ]);
    return (err as UrlRefused).reason;
  };

  it("refuses loopback, private and link-local targets, in any spelling", async () => {
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://10.0.0.5/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]:9000/",
      "http://[::ffff:127.0.0.1]/",
      "http://2130706433/",
      "http://0x7f.1/",
      "http://localhost:3000/hook",
    ]) {
      expect(await refused(url)).toMatch(/private or reserved/);
    }
  });

  it("allows them when private targets are allowed", async () => {
    for (const url of ["http://127.0.0.1:8080/hook", "http://[::1]:9000/", "http://localhost:3000/hook"]) {
      await expect(checkWebhookUrl(url, true)).resolves.toBeInstanceOf(URL);
    }
  });

  it("allows public addresses", async () => {
    await expect(checkWebhookUrl("https://93.184.216.34/hook", false)).resolves.toBeInstanceOf(URL);
  });

  it("refuses other schemes, credentials, relative and unresolvable URLs", async () => {
    expect(await refused("ftp://93.184.216.34/x", true)).toMatch(/http/);
    expect(await refused("file:///etc/passwd", true)).toMatch(/http/);
    expect(await refused("/relative", true)).toMatch(/absolute/);
    expect(await refused("https://user:pw@93.184.216.34/", true)).toMatch(/credentials/);
    expect(await refused("https://no-such-host.invalid/", true)).toMatch(/does not resolve/);
    expect(() => parseWebhookUrl("javascript:alert(1)")).toThrow(UrlRefused);
  });
});
