import { describe, expect, it } from "vitest";
import { planHostEnvironment } from "./harbor-dockerfile";

const plan = (dockerfile: string | null, workdir: string | null = null) =>
  planHostEnvironment(dockerfile, workdir);

describe("planHostEnvironment: what of a Dockerfile the host image honours", () => {
  it("honours FROM, WORKDIR, ENV and local copies into the workdir", () => {
    const verdict = plan(
      '# a task\nFROM python:3.12-slim\nWORKDIR /app\nENV A=1 B="two words"\nCOPY top.sh data.txt /app/\nCOPY dir ./sub\nCOPY ["x y.txt", "z.txt"]\nCMD ["sleep", "infinity"]\n',
    );
    expect(verdict).toEqual({
      isHostCompatible: true,
      plan: {
        baseImage: "python:3.12-slim",
        workdir: "/app",
        env: { A: "1", B: "two words" },
        copies: [
          { source: "top.sh", destination: "", isDirectoryDestination: true },
          { source: "data.txt", destination: "", isDirectoryDestination: true },
          { source: "dir", destination: "sub", isDirectoryDestination: false },
          { source: "x y.txt", destination: "z.txt", isDirectoryDestination: false },
        ],
        ignored: ["line 8: CMD"],
      },
    });
  });

  it("without a Dockerfile, copies the whole environment into the workspace", () => {
    expect(plan(null)).toMatchObject({
      isHostCompatible: true,
      plan: {
        workdir: "/workspace",
        copies: [{ source: "", destination: "", isDirectoryDestination: true }],
      },
    });
  });

  it.each([
    ["FROM debian\nRUN apt-get install -y jq\n", "line 2: RUN changes the image"],
    ["FROM a AS build\nFROM b\n", "line 2: a second FROM"],
    ["FROM a\nWORKDIR /app\nCOPY --from=build /x /app/\n", "COPY --from=build"],
    ["FROM a\nWORKDIR /app\nCOPY *.py /app/\n", "glob"],
    ["FROM a\nWORKDIR /app\nADD https://example.com/x.tgz /app/\n", "from a URL"],
    ["FROM a\nWORKDIR /app\nADD data.tar.gz /app/\n", "archive"],
    ["FROM a\nWORKDIR /app\nCOPY cfg /etc/cfg\n", "outside the workdir /app"],
    ["FROM a\nWORKDIR /app\nCOPY ../secret /app/\n", "outside the build context"],
    ["FROM a\nWORKDIR $HOME\n", "$ substitution"],
    ["FROM a\nCOPY x.txt /x.txt\n", "no WORKDIR"],
    ["FROM a\nWORKDIR /usr\n", "system directory"],
    ["FROM a\nWORKDIR /tmp/app\n", "lies in /tmp"],
  ])("refuses %j as needing an image", (dockerfile, reason) => {
    const verdict = plan(dockerfile);
    expect(verdict.isHostCompatible).toBe(false);
    if (!verdict.isHostCompatible) {
      expect(verdict.reason).toContain(reason);
      // And what the task lacks: its image, built elsewhere and placed beside it.
      expect(verdict.reason).toMatch(/this task needs its image, and it ships none/);
      expect(verdict.reason).toContain("next to the task as image.sif, image.tar");
    }
  });

  it("joins continuation lines and lets [environment].workdir win", () => {
    const verdict = plan("FROM a\nWORKDIR /app\nCOPY \\\n  one.txt \\\n  /srv/task/\n", "/srv/task");
    expect(verdict).toMatchObject({
      isHostCompatible: true,
      plan: {
        workdir: "/srv/task",
        copies: [{ source: "one.txt", destination: "", isDirectoryDestination: true }],
      },
    });
  });
});
