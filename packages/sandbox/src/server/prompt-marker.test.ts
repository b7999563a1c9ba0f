import { describe, expect, it } from "vitest";
import { bashRcScript, commandLine, renderMarker, scanForMarker } from "./prompt-marker";

describe("scanForMarker", () => {
  const nonce = "a1b2c3d4e5f6";

  it("finds the marker of an accepted nonce with its exit code", () => {
    const text = `out\n${renderMarker(nonce, 130)}`;
    expect(scanForMarker(text, [nonce])).toEqual({
      kind: "found",
      index: 4,
      end: text.length,
      nonce,
      exitCode: 130,
    });
  });

  it("treats markers of other nonces and malformed markers as output", () => {
    const text = `${renderMarker("000000000000", 0)} __RAAS_${nonce}_x__ __RAAS_${nonce}_1234__ done`;
    expect(scanForMarker(text, [nonce])).toEqual({ kind: "pending", safeLength: text.length });
  });

  it("holds back a tail that may still become a marker", () => {
    for (const tail of ["__RA", `__RAAS_${nonce.slice(0, 5)}`, `__RAAS_${nonce}_`, `__RAAS_${nonce}_12_`]) {
      expect(scanForMarker(`abc${tail}`, [nonce])).toEqual({ kind: "pending", safeLength: 3 });
    }
  });

  it("returns the earliest marker when several nonces are accepted", () => {
    const stale = "ffffffffffff";
    const text = `x${renderMarker(stale, 130)}${renderMarker(nonce, 0)}`;
    expect(scanForMarker(text, [nonce, stale])).toMatchObject({ kind: "found", index: 1, nonce: stale });
  });
});

describe("shell side of the protocol", () => {
  it("freezes what could forge a marker and renders the marker from one function of assignments", () => {
    const script = bashRcScript("abcdefabcdef");
    expect(script).toContain("readonly PS4 BASH_ALIASES");
    expect(script).toMatch(/^enable -n trap exec alias history fc$/m);
    expect(script).toMatch(/^enable -n enable$/m);
    expect(script).toMatch(/^readonly -f __raas_end __raas_rc /m);
    // Only the start marker is in the file; every later one is assembled by __raas_end.
    expect(script.match(/__RAAS_[0-9a-f]{12}_\d+__/g)).toEqual(["__RAAS_abcdefabcdef_0__"]);
    const end = /^__raas_end\(\) \{ (.*) \}$/m.exec(script)?.[1] ?? "";
    expect(end.split("; ").every((statement) => /^[A-Z_a-z0-9]+=/.test(statement))).toBe(true);
  });

  it("puts the command's nonce after the script, where the command cannot read it", () => {
    expect(commandLine("/run/bash-1.sh", "0123456789ab")).toBe(
      "{ \\__raas_rc; } 2>/dev/null; \\. '/run/bash-1.sh'; { \\__raas_end 0123456789ab; } 2>/dev/null\n",
    );
  });
});
