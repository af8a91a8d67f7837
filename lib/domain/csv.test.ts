import { describe, expect, it } from "vitest";
import { csvCell, csvLine, toCsv } from "./csv";

describe("the CSV writer", () => {
  it.each([
    ["=SUM(A1)", "'=SUM(A1)"],
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ["+1 555", "'+1 555"],
    ["-x", "'-x"],
    ["@cmd", "'@cmd"],
    ["\tx", "'\tx"],
    ["\r=1", `"'\r=1"`],
    ["=1,2", `"'=1,2"`],
    [["=a", "b"], "'=a;b"],
    [{ k: "=x" }, `"{""k"":""=x""}"`],
  ])("guards %j against formulas", (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it("leaves other values as they are, quoting what needs it", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a=b")).toBe("a=b");
    expect(csvCell(" =x")).toBe(" =x");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell(12n)).toBe("12");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell(["a", "b"])).toBe("a;b");
  });

  it("writes lines and tables with CRLF", () => {
    expect(csvLine(["a", 1, null])).toBe("a,1,\r\n");
    expect(toCsv(["h1", "h2"], [["=x", -1]])).toBe("h1,h2\r\n'=x,-1\r\n");
    expect(toCsv(["only"], [])).toBe("only\r\n");
  });
});
