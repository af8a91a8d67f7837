import { describe, expect, it } from "vitest";
import { readParams } from "./params";

describe("readParams", () => {
  it("reads multipart bodies whose boundary has capital letters (browsers' boundaries do)", async () => {
    const boundary = "----WebKitFormBoundaryAbCdEfGh12345678";
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="body"',
      "",
      "Hello",
      `--${boundary}`,
      'Content-Disposition: form-data; name="attachment"; filename="a.txt"',
      "Content-Type: text/plain",
      "",
      "text",
      `--${boundary}--`,
      "",
    ].join("\r\n");
    const url = new URL("http://x/api/conversations/1/reply");
    const req = new Request(url, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const params = await readParams(req, url);
    expect(params.body).toBe("Hello");
    expect(params.attachment).toBeInstanceOf(File);
  });
});
