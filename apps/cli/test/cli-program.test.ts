// The command line as declared with commander, run in-process (no server): every command answers
// --help from its declaration, --version is the package's, typos get a suggestion on one line,
// and the completion scripts cover every command (the bash one is run in a real bash).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { completionTree } from "../src/completion/command-tree";
import { buildProgram } from "../src/program";
import { runCli } from "../src/run-cli";
import { REPO_ROOT } from "./support/start-server";

async function raas(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    writeOut: (text) => {
      stdout += text;
    },
    writeErr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

const noOutput = { writeOut: () => {}, writeErr: () => {} };
const noContext = {
  client: () => {
    throw new Error("no client in this test");
  },
  setExitCode: () => {},
};
/** Every command path ("jobs list"), read from the declarations the CLI runs. */
const PATHS = completionTree(buildProgram(noContext, "0.0.0", noOutput))
  .nodes.map((node) => node.path)
  .filter((path) => path !== "");

const TOP_LEVEL = [
  "serve",
  "worker",
  "submit",
  "status",
  "jobs",
  "export",
  "eval",
  "model",
  "workers",
  "runs",
  "steps",
  "env",
  "demo",
  "completion",
];

describe("raas --help and --version", () => {
  it("declares every command the CLI had, and their subcommands", () => {
    expect(PATHS.filter((path) => !path.includes(" "))).toEqual(TOP_LEVEL);
    for (const path of [
      "jobs list",
      "jobs get",
      "jobs cancel",
      "eval swe",
      "workers drain",
      "steps show",
      "env verify",
      "model check",
    ])
      expect(PATHS).toContain(path);
  });

  it.each(PATHS)("raas %s --help prints its usage and exits 0", async (path) => {
    const result = await raas([...path.split(" "), "--help"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(new RegExp(`^Usage: raas ${path} `));
    expect(result.stdout).toContain("--help");
  });

  it("describes each option of submit (the command that used to refuse --help)", async () => {
    const { stdout } = await raas(["submit", "--help"]);
    for (const flag of [
      "--kind <kind>",
      "--demo <count>",
      "--wait",
      "--json",
      "--key-salt <salt>",
      "--url <url>",
    ])
      expect(stdout).toContain(flag);
  });

  it("prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "apps/cli/package.json"), "utf8"));
    expect(await raas(["--version"])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it("prints the overview on stdout and exits 2 when no command is given, 0 for help", async () => {
    const bare = await raas([]);
    expect(bare.code).toBe(2);
    for (const command of TOP_LEVEL) expect(bare.stdout).toContain(`  ${command}`);
    expect((await raas(["help"])).code).toBe(0);
    expect((await raas(["help", "submit"])).stdout).toMatch(/^Usage: raas submit /);
  });
});

describe("raas mistakes", () => {
  it("suggests the command meant, on one line, exit 2", async () => {
    expect(await raas(["sbumit"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: unknown command 'sbumit' (Did you mean submit?)\n",
    });
    expect((await raas(["jobs", "lsit"])).stderr).toBe(
      "error: unknown command 'lsit' (Did you mean list?)\n",
    );
  });

  it("suggests the option meant, on one line, exit 1", async () => {
    expect(await raas(["submit", "jobs.jsonl", "--jsn"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: unknown option '--jsn' (Did you mean --json?)\n",
    });
  });

  it("names the allowed values of a bad choice and the missing value of an option", async () => {
    const status = await raas(["jobs", "list", "--status", "done"]);
    expect(status.code).toBe(1);
    expect(status.stderr).toMatch(
      /^error: option '--status <status>' argument 'done' is invalid\. .*completed/,
    );
    expect(status.stderr.trimEnd().split("\n")).toHaveLength(1);
    const url = await raas(["status", "--url"]);
    expect(url).toMatchObject({ code: 1, stderr: "error: option '--url <url>' argument missing\n" });
  });

  it("refuses arguments to `raas worker` as before, exit 2", async () => {
    const stderr: string[] = [];
    const original = console.error;
    console.error = (line: string) => stderr.push(line);
    try {
      expect((await raas(["worker", "extra"])).code).toBe(2);
    } finally {
      console.error = original;
    }
    expect(stderr).toEqual([
      "raas worker takes no arguments (got extra); configure it with environment variables",
    ]);
  });
});

describe("raas completion", () => {
  it("prints a bash script naming every command; bash completes from it", async () => {
    const { code, stdout } = await raas(["completion", "bash"]);
    expect(code).toBe(0);
    for (const path of PATHS) expect(stdout).toContain(`/${path.replaceAll(" ", "/")}`);
    const complete = (line: string) => {
      const script = `source /dev/stdin <<'EOF'\n${stdout}\nEOF
read -ra COMP_WORDS <<< "$LINE"; [[ "$LINE" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _raas_completion; echo "\${COMPREPLY[*]}"`;
      const result = spawnSync("bash", ["-c", script], {
        env: { ...process.env, LINE: line },
        encoding: "utf8",
      });
      expect(result.stderr).toBe("");
      return result.stdout.trim();
    };
    expect(complete("raas jo")).toBe("jobs");
    expect(complete("raas jobs ")).toBe("list get cancel help --help");
    expect(complete("raas --url http://x workers d")).toBe("drain");
    expect(complete("raas jobs list --status c")).toBe("completed cancelled");
    expect(complete("raas submit --k")).toBe("--kind --key-salt");
    expect(complete("raas completion ")).toBe("bash zsh --help");
  });

  it("prints a zsh script naming every command with its summary", async () => {
    const { code, stdout } = await raas(["completion", "zsh"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^#compdef raas\n/);
    expect(stdout).toContain("compdef _raas raas");
    for (const path of PATHS) expect(stdout).toContain(`'/${path.replaceAll(" ", "/")}'`);
    expect(stdout).toContain("'submit:submit jobs from a JSON/JSONL file, or N diagnostic jobs'");
  });

  it("names the shells it knows when given another", async () => {
    expect(await raas(["completion", "fish"])).toMatchObject({
      code: 1,
      stderr:
        "error: command-argument value 'fish' is invalid for argument 'shell'. Allowed choices are bash, zsh.\n",
    });
  });
});

describe("npm run raas", () => {
  it("answers --help for a subcommand through the root script", () => {
    const result = spawnSync("npm", ["run", "--silent", "raas", "--", "submit", "--help"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: raas submit \[options\] \[file\]/);
  });
});
