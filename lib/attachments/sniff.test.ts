import { describe, expect, it } from "vitest";
import { checkFile, sniff } from "./sniff";

const b = (s: string) => Buffer.from(s, "latin1");

describe("file types by content", () => {
  it.each([
    ["a.jpg", b("\xff\xd8\xff\xe0rest"), "image/jpeg"],
    ["a.JPEG", b("\xff\xd8\xff\xdb"), "image/jpeg"],
    ["a.png", b("\x89PNG\r\n\x1a\n...."), "image/png"],
    ["a.gif", b("GIF87a.."), "image/gif"],
    ["a.pdf", b("%PDF-1.4"), "application/pdf"],
    ["a.rar", b("Rar!\x1a\x07\x00"), "application/vnd.rar"],
    ["a.zip", b("PK\x03\x04...."), "application/zip"],
    ["a.zip", b("PK\x03\x04[Content_Types].xml word/"), "application/zip"],
    [
      "a.docx",
      b("PK\x03\x04[Content_Types].xml word/document.xml"),
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ],
    [
      "a.xlsx",
      b("PK\x03\x04[Content_Types].xml xl/workbook.xml"),
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ],
    ["a.doc", b("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), "application/msword"],
    ["a.xls", b("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), "application/vnd.ms-excel"],
    ["a.txt", b("hello\r\n\tworld \xe9"), "text/plain"],
    ["a.csv", b("a,b\n1,2\n"), "text/csv"],
    ["a.html", b("<!doctype html><p>x"), "text/html"],
    ["a.sig", b("-----BEGIN PGP SIGNATURE-----\n"), "application/pgp-signature"],
    ["a.sig", b("\x89\x01\x33\x04\x00"), "application/pgp-signature"],
    ["a.sig", b("\x30\x82\x01\x00"), "application/pgp-signature"],
  ])("%s is accepted", (name, bytes, mime) => {
    expect(checkFile(name, bytes)).toEqual({ ok: true, mime });
  });

  it.each([
    ["a.png", b("\xff\xd8\xff")],
    ["a.jpg", b("GIF89a")],
    ["a.docx", b("PK\x03\x04 plain")],
    ["a.doc", b("PK\x03\x04")],
    ["a.txt", b("\x00\x01binary")],
    ["a.html", b("\x7fELF\x02\x01\x01\x00")],
    ["a.exe", b("MZ")],
    ["a", b("hello")],
    ["a.pdf", b("")],
  ])("%s with the wrong content is refused", (name, bytes) => {
    expect(checkFile(name, bytes).ok).toBe(false);
  });

  it("recognises nothing in random binary", () => {
    expect(sniff(b("\x7fELF\x02\x01\x01\x00"))).toBeUndefined();
  });
});
