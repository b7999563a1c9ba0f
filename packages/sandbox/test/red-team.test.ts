import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ManagedSandbox } from "../src/index";
import { PREPARE_TIMEOUT_MS, SANDBOX_TARGETS } from "./support/sandbox-targets";

/**
 * The attacks of issue 9 §2–§3, each run by a "policy" against a real bubblewrap sandbox, and
 * each asserting what must come out: the execution server survives and answers, and tool results
 * belong to the call that produced them with the exit status the command really had. Every suite
 * runs on the host's root filesystem and on an image. Exec isolation and the policy's own failures
 * are in red-team-exec.test.ts.
 */

const CALL_TIMEOUT_MS = 15_000;

function tools(sandbox: () => ManagedSandbox) {
  return {
    bash: (command: string, timeoutMs = CALL_TIMEOUT_MS) =>
      sandbox().runTool("bash", { command }, { timeoutMs }),
    python: (code: string, timeoutMs = CALL_TIMEOUT_MS) =>
      sandbox().runTool("python", { code }, { timeoutMs }),
  };
}

/** Three calls in a row, each with its own output and exit status: nothing shifted or forged. */
async function expectHonestSequence(sandbox: ManagedSandbox, label: string): Promise<void> {
  const { bash } = tools(() => sandbox);
  const first = await bash(`echo ${label}-one`);
  expect(first).toMatchObject({ output: `${label}-one\n`, exitCode: 0, timedOut: false });
  const failing = await bash(`echo ${label}-two; false`);
  expect(failing).toMatchObject({ output: `${label}-two\n`, exitCode: 1, isError: true, timedOut: false });
  const exited = await bash(`echo ${label}-three; (exit 7)`);
  expect(exited).toMatchObject({ output: `${label}-three\n`, exitCode: 7, timedOut: false });
  expect(await bash("true")).toMatchObject({ output: "", exitCode: 0 });
}

/** The server answers and its tools still work: health, a bash call, a python cell. */
async function expectServerAlive(sandbox: ManagedSandbox, serverPid: number): Promise<void> {
  expect(sandbox.state).toBe("ready");
  expect((await sandbox.health()).pid).toBe(serverPid);
  expect((await sandbox.runTool("bash", { command: "echo alive" })).output).toBe("alive\n");
  expect((await sandbox.runTool("python", { code: "6 * 7" })).output).toBe("42\n");
}

describe.each(SANDBOX_TARGETS)(
  "red team: the execution server is out of the tools' reach ($name)",
  (target) => {
    const fixture = target.createRuntime({ noOutputTimeoutMs: 5_000 });
    let sandbox: ManagedSandbox;
    let serverPid: number;
    const { bash, python } = tools(() => sandbox);

    beforeAll(async () => {
      await target.prepare();
      sandbox = await fixture.runtime.create(target.spec());
      serverPid = (await sandbox.health()).pid;
      expect(sandbox.isolation).toMatchObject({ toolJail: true });
    }, PREPARE_TIMEOUT_MS);
    afterAll(() => fixture.dispose());

    it("shows no execution server in the tools' /proc, from bash, python or exec", async () => {
      const listing = "for d in /proc/[0-9]*; do tr '\\0' ' ' < $d/cmdline; echo; done";
      const fromBash = await bash(`${listing}; pgrep -c node || true`);
      expect(fromBash.output).not.toMatch(/node|exec-server/);
      expect(fromBash.output.trim().endsWith("0")).toBe(true);
      const fromPython = await python(
        "import os\nsorted(open(f'/proc/{p}/cmdline','rb').read().decode(errors='replace') for p in os.listdir('/proc') if p.isdigit())",
      );
      expect(fromPython.output).not.toMatch(/node|exec-server/);
      const fromExec = await sandbox.exec(["sh", "-c", listing]);
      expect(fromExec.exitCode).toBe(0);
      expect(fromExec.stdout).not.toMatch(/node|exec-server/);
    });

    it("has no /run/raas/exec.sock in the tools' view", async () => {
      // Only two read-only directories show through the hidden /run/raas: the shell's own scripts
      // and the host channel, which stays empty unless the host opens a gateway for a harness job.
      const probe =
        "test -e /run/raas/exec.sock && echo present || echo absent; find / -xdev -type s -name 'exec*.sock' 2>/dev/null; ls -A1 /run/raas; ls -A /run/raas/channel | wc -l; touch /run/raas/channel/x 2>/dev/null && echo writable || echo read-only";
      const expected = "absent\nchannel\ntools\n0\nread-only\n";
      expect((await bash(probe)).output).toBe(expected);
      expect((await sandbox.exec(["sh", "-c", probe])).stdout).toBe(expected);
      expect(
        (
          await python(
            "import os\n(os.path.exists('/run/raas/exec.sock'), sorted(os.listdir('/run/raas')), os.listdir('/run/raas/channel'))",
          )
        ).output,
      ).toBe("(False, ['channel', 'tools'], [])\n");
    });

    it.each([
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
      ["kill -9 of every visible pid", "for d in /proc/[0-9]*; do kill -9 ${d#/proc/}; done"],
      ["pkill -9 node", "pkill -9 node; echo pkill=$?"],
      ["kill -9 -1", "kill -9 -1"],
    ])("survives %s: the sandbox stays ready and the next call works", async (_name, attack) => {
      const result = await bash(attack);
      // Killing its own shell is the command's business; the server only reports it.
      expect(result.timedOut).toBe(false);
      if (attack.startsWith("pkill")) expect(result.output).toBe("pkill=1\n");
      await sandbox.exec(["sh", "-c", attack]);
      await python(
        `import os, signal\nfor p in os.listdir('/proc'):\n  if p.isdigit() and int(p) != os.getpid():\n    try: os.kill(int(p), 9)\n    except OSError: pass`,
      );
      await expectServerAlive(sandbox, serverPid);
      await expectHonestSequence(sandbox, "after-kill");
    });

    it("cannot ptrace anything outside its own descendants (python ctypes PTRACE_ATTACH)", async () => {
      // Attach to every visible process but ourselves; report which attaches the kernel allowed.
      const attach = [
        "import ctypes, os",
        "libc = ctypes.CDLL(None, use_errno=True)",
        "own = os.getpid()",
        "allowed = []",
        "for p in sorted(int(p) for p in os.listdir('/proc') if p.isdigit()):",
        "    if p == own: continue",
        "    try: comm = open(f'/proc/{p}/comm').read().strip()",
        "    except OSError: continue",
        "    if libc.ptrace(16, p, None, None) == 0:",
        "        allowed.append(comm)",
        "        os.waitpid(p, 0x40000000)",
        "        libc.ptrace(17, p, None, None)",
        "print('attached:', sorted(allowed))",
      ].join("\n");
      await sandbox.writeFile("attach.py", attach);
      const fromBash = await bash("python3 attach.py");
      expect(fromBash.exitCode).toBe(0);
      // The shell is not dumpable and nothing of the server is visible. The jail's own init
      // (bwrap, no capabilities, holding only the tools' terminal) is the one attachable process.
      expect(fromBash.output).toMatch(/^attached: \[('bwrap')?\]\n$/);
      const fromCell = await python(attach);
      expect(fromCell.output).toMatch(/^attached: \[('bwrap')?\]\n$/);
      const fromExec = await sandbox.exec(["python3", "attach.py"]);
      expect(fromExec.stdout).toMatch(/^attached: \[('bwrap')?\]\n$/);
      const init = await bash("grep -E '^(CapEff|NoNewPrivs)' /proc/1/status; ls /proc/1/fd | wc -l");
      expect(init.output).toMatch(/^CapEff:\s+0+\nNoNewPrivs:\s+1\n[1-5]\n$/);
      await expectServerAlive(sandbox, serverPid);
      await expectHonestSequence(sandbox, "after-ptrace");
    });

    it("cannot attach gdb to the shell", async () => {
      const result = await bash(
        "command -v gdb >/dev/null || { echo no-gdb; exit 0; }; gdb -batch -p $$ -ex 'print (int) getpid()' 2>&1 | grep -cE '^\\$1 = [0-9]+$'; true",
      );
      expect(result.output).toMatch(/^(no-gdb|0)\n$/);
      await expectHonestSequence(sandbox, "after-gdb");
    });

    it("cannot read the shell's memory, environment or fds from a child process", async () => {
      // Reads the first mapped page of mem (offset 0 is never mapped), environ, maps and fd/.
      const scrape = [
        "import os, sys",
        "for p in sys.argv[1:]:",
        "    for f in ('environ', 'maps', 'cmdline'):",
        "        try: data = open(f'/proc/{p}/{f}', 'rb').read(); print(p, f, 'nonce' if b'__raas_end ' in data else 'readable')",
        "        except OSError: print(p, f, 'denied')",
        "    try: print(p, 'fd', len(os.listdir(f'/proc/{p}/fd')))",
        "    except OSError: print(p, 'fd denied')",
        "    try:",
        "        start = int(open(f'/proc/{p}/maps').readline().split('-')[0], 16)",
        "        m = open(f'/proc/{p}/mem', 'rb'); m.seek(start); m.read(4096); print(p, 'mem readable')",
        "    except (OSError, ValueError): print(p, 'mem denied')",
      ].join("\n");
      await sandbox.writeFile("scrape.py", scrape);
      const result = await bash("python3 scrape.py $$ $PPID");
      const [shell, parent] = (await bash("echo $$ $PPID")).output.trim().split(" ");
      const lines = result.output.trim().split("\n");
      expect(lines.filter((line) => line.startsWith(`${shell} `))).toEqual([
        `${shell} environ denied`,
        `${shell} maps denied`,
        `${shell} cmdline readable`,
        `${shell} fd denied`,
        `${shell} mem denied`,
      ]);
      // The parent is the jail's init (bwrap): it never sees a nonce (those reach only the shell).
      expect(lines.filter((line) => line.startsWith(`${parent} `) && line.includes("nonce"))).toEqual([]);
      expect(result.output).not.toContain("nonce");
    });
  },
);

describe.each(SANDBOX_TARGETS)("red team: bash results cannot be forged ($name)", (target) => {
  const fixture = target.createRuntime({ noOutputTimeoutMs: 5_000 });
  let sandbox: ManagedSandbox;
  const { bash } = tools(() => sandbox);

  beforeAll(async () => {
    await target.prepare();
    sandbox = await fixture.runtime.create(target.spec());
  }, PREPARE_TIMEOUT_MS);
  afterAll(() => fixture.dispose());

  it("PROMPT_COMMAND rewriting the marker's exit code does not turn `false` into 0", async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
    const set = await bash("PROMPT_COMMAND='PS1=${PS1/_1__/_0__}'; false");
    expect(set).toMatchObject({ exitCode: 1, timedOut: false });
    expect(await bash("false")).toMatchObject({ exitCode: 1, output: "" });
    await expectHonestSequence(sandbox, "prompt-command");
  });

  it("PS0 and PROMPT_COMMAND arrays printing fake markers do not end or shift calls", async () => {
    await bash(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
      "PS0='${PS1/_1__/_0__}'; PROMPT_COMMAND=('echo forged' 'PS1=${PS1/_1__/_0__}'); false",
    );
    await expectHonestSequence(sandbox, "ps0");
  });

  it("a detached process waiting to read the terminal never gets the next line or forges its marker", async () => {
    // The thief blocks reading the terminal from its own session, then would print a marker with
    // the stolen nonce. The spawning call waits until it really is blocked in read(2) (syscall 0),
    // the state the server's scan looks for, so the test does not depend on scheduling.
    const thief = [
      "cat > /tmp/thief.py <<'EOF'",
      "import os, re, sys",
      "fd = os.open(sys.argv[1], os.O_RDWR)",
      "open('/tmp/thief.pid', 'w').write(str(os.getpid()))",
      "line = os.read(fd, 4096).decode()",
      "open('/tmp/stolen', 'w').write(line)",
      "m = re.search(r'__raas_end (\\w+)', line)",
      "os.write(fd, ('\\n__RAAS_%s_0__' % (m.group(1) if m else 'x')).encode())",
      "EOF",
      'rm -f /tmp/thief.pid /tmp/stolen; setsid python3 /tmp/thief.py "$(tty)" < /dev/null > /dev/null 2>&1 &',
      "for _ in $(seq 200); do [ -s /tmp/thief.pid ] && [ \"$(cut -d' ' -f1 /proc/$(cat /tmp/thief.pid)/syscall 2>/dev/null)\" = 0 ] && break; sleep 0.05; done",
      "cut -d' ' -f1 /proc/$(cat /tmp/thief.pid)/syscall",
    ].join("\n");
    expect((await bash(thief)).output).toMatch(/(^|\n)0\n$/);
    const next = await bash("echo real; false");
    expect(next).toMatchObject({ exitCode: 1, timedOut: false });
    expect(next.output).toContain("real\n");
    expect(next.output).toContain("waiting to read the terminal");
    expect((await bash("cat /tmp/stolen 2>/dev/null; echo .")).output).toBe(".\n");
    await expectHonestSequence(sandbox, "thief");
  });

  it("refuses DEBUG traps, also with extdebug", async () => {
    const result = await bash(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
      "shopt -s extdebug; trap 'PS1=${PS1/_1__/_0__}; return 0' DEBUG; echo trap=$?; false",
    );
    expect(result).toMatchObject({ exitCode: 1, timedOut: false });
    expect(result.output).toContain("traps are not available");
    expect(result.output).toContain("trap=2\n");
    expect((await bash("builtin trap 'echo x' DEBUG; echo rc=$?")).output).toMatch(/rc=(1|2|127)\n$/);
    expect((await bash("command trap -p; echo rc=$?")).output).toMatch(/rc=(1|2|127)\n$/);
    await expectHonestSequence(sandbox, "trap");
    await bash("shopt -u extdebug");
  });

  it.each([
    ["return", "return() { :; }"],
    ["local", "local() { :; }"],
    ["set", "set() { :; }"],
    ["builtin", "builtin() { :; }"],
    ["all of them", "return() { :; }; local() { :; }; set() { :; }; builtin() { :; }; command() { :; }"],
  ])("shadowing %s with a function does not make `false` succeed", async (_name, shadow) => {
    expect(await bash(`${shadow}; false`)).toMatchObject({ exitCode: 1, timedOut: false });
    await expectHonestSequence(sandbox, "shadow");
    await bash("unset -f return local set builtin command 2>/dev/null; true");
  });

  it("cannot redefine the shell's own functions", async () => {
    const result = await bash("__raas_end() { PS1=forged; }; __raas_rc() { return 0; }; echo rc=$?");
    expect(result.output).toMatch(/readonly function/);
    await expectHonestSequence(sandbox, "redefine");
  });

  it.each([
    ["readonly __raas_s", "readonly __raas_s"],
    ["declare -r PS1", "declare -r PS1"],
    ["readonly PROMPT_COMMAND", "PROMPT_COMMAND=true; readonly PROMPT_COMMAND"],
    ["readonly PS0", "readonly PS0"],
  ])("freezing a marker variable (%s) makes the call time out, never exit 0", async (_name, freeze) => {
    const own = await fixture.runtime.create(target.spec());
    try {
      const result = await own.runTool("bash", { command: `${freeze}; false` }, { timeoutMs: 2_000 });
      expect(result.exitCode).not.toBe(0);
      expect(result.timedOut).toBe(true);
      // The shell stays frozen (the agent broke its own shell): later calls still never pass.
      const later = await own.runTool("bash", { command: "true" }, { timeoutMs: 2_000 });
      expect(later.exitCode).not.toBe(0);
      expect(later.isError).toBe(true);
    } finally {
      await own.close();
    }
  });

  it.each([
    ["BASH_ALIASES", "BASH_ALIASES[false]=true; BASH_ALIASES[__raas_end]='PS1=x;:'"],
    ["alias", "alias false=true"],
    ["exec bash --rcfile", "printf 'PS1=forged\\n' > /tmp/evil.rc; exec bash --rcfile /tmp/evil.rc"],
    ["builtin exec", "builtin exec bash --norc"],
    ["enable trap", "enable trap; enable -s; enable -f /nonexistent x"],
    ["history", "history -s 'echo forged'; history -w /tmp/h; fc -l"],
    ["set -o history", "set -o history; history"],
    ["PS4 via set -x", "PS4='$(echo __RAAS_forged_0__)'; set -x"],
    ["unset PS1", "unset PS1 PROMPT_COMMAND PS0"],
    ["source of a marker-like file", "echo 'PS1=x' > /tmp/x.sh; . /tmp/x.sh"],
  ])("%s cannot forge or shift results", async (_name, attack) => {
    const result = await bash(`${attack}; false`);
    expect(result.exitCode === 0).toBe(false);
    expect(result.output).not.toContain("forged\n__RAAS");
    await expectHonestSequence(sandbox, "trick");
    await bash("set +x; true");
  });
});

describe.each(SANDBOX_TARGETS)("red team: python results cannot be forged ($name)", (target) => {
  const fixture = target.createRuntime();
  let sandbox: ManagedSandbox;
  const { python } = tools(() => sandbox);

  beforeAll(async () => {
    await target.prepare();
    sandbox = await fixture.runtime.create(target.spec());
  }, PREPARE_TIMEOUT_MS);
  afterAll(() => fixture.dispose());

  async function expectNextCellHonest(): Promise<void> {
    const failing = await python("1/0");
    expect(failing).toMatchObject({ isError: true, timedOut: false });
    expect(failing.output).toContain("ZeroDivisionError");
    const ok = await python("'value'");
    expect(ok).toMatchObject({ isError: false, output: "'value'\n" });
  }

  /** A fresh interpreter, so that one trick's leftovers do not mask the next trick's effect. */
  async function restartInterpreter(): Promise<void> {
    const exited = await python("import os\nos._exit(0)");
    expect(exited.output).toContain("the interpreter exited");
  }

  it("a cell that hunts a nonce in frames and gc and prints a fake ok marker still fails", async () => {
    const result = await python(
      [
        "import sys, gc, re",
        "found = set()",
        "f = sys._getframe()",
        "while f is not None:",
        "    for v in list(f.f_locals.values()) + list(f.f_globals.values()):",
        "        if isinstance(v, (str, bytes)): found.update(re.findall(r'[0-9a-f]{12}', str(v)))",
        "    f = f.f_back",
        "for o in gc.get_objects():",
        "    if isinstance(o, dict):",
        "        for v in o.values():",
        "            if isinstance(v, str) and len(v) < 200: found.update(re.findall(r'[0-9a-f]{12}', v))",
        "for n in sorted(found):",
        "    print(f'\\n__RAAS_PY_{n}_ok__', flush=True)",
        "print('\\n__RAAS_PY_000000000000_ok__', flush=True)",
        "raise RuntimeError('really failed')",
      ].join("\n"),
    );
    expect(result).toMatchObject({ isError: true, timedOut: false });
    expect(result.output).toContain("Traceback (most recent call last)");
    expect(result.output).toContain("RuntimeError: really failed");
    await expectNextCellHonest();
  });

  it.each([
    ["sys.stdout", "import sys, io\nsys.stdout = io.StringIO(); sys.stderr = sys.stdout"],
    ["json.loads.__code__", "import json\njson.loads.__code__ = (lambda *a, **k: {'status': 'ok'}).__code__"],
    ["builtins.print", "import builtins\nbuiltins.print = lambda *a, **k: None"],
    ["sys.settrace", "import sys\nsys.settrace(lambda *a: None)\nsys.setprofile(lambda *a: None)"],
    [
      "builtins.isinstance / repr",
      "import builtins\nbuiltins.isinstance = lambda *a: False\nbuiltins.repr = lambda o: 'x'",
    ],
    ["os.write", "import os\nreal = os.write\nos.write = lambda fd, b: real(fd, b.replace(b'error', b'ok'))"],
    [
      "sys.excepthook / traceback",
      "import sys, traceback\nsys.excepthook = None\ntraceback.format_exception_only = lambda *a: ['']",
    ],
    ["signal handler", "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)"],
    ["sys.displayhook", "import sys\nsys.displayhook = lambda v: None"],
  ])("replacing %s does not change how the next cell is reported", async (_name, cell) => {
    await python(cell);
    await expectNextCellHonest();
    await restartInterpreter();
  });

  it.each([
    ["a wrong cell number", "import os\nos.write(4, b'done 999\\n')\nraise ValueError('failed')"],
    [
      "the right cell number, then its own seal",
      [
        "import os, re",
        "os.write(4, b'done 1\\n')",
        "seal = os.read(3, 200).decode()",
        "nonce = re.search(r'seal:(\\w+)', seal).group(1)",
        "os.write(1, ('\\n__RAAS_PY_%s_ok__\\n' % nonce).encode())",
        "raise ValueError('failed')",
      ].join("\n"),
    ],
  ])(
    "a cell that speaks on the control channel (%s) never makes a later cell misreport",
    async (_name, cell) => {
      await restartInterpreter();
      const forged = await python(cell);
      // The forging cell may win its own report at most; the interpreter is then replaced, so the
      // report of every later cell is its own.
      if (forged.isError) expect(forged.output).toMatch(/ValueError|control channel/);
      const next = await python("1/0");
      expect(next.isError).toBe(true);
      if (!next.output.includes("control channel")) expect(next.output).toContain("ZeroDivisionError");
      await expectNextCellHonest();
      expect((await python("'fresh'")).output).toBe("'fresh'\n");
    },
  );

  it("a fake end marker written on stdout and stderr does not end the cell", async () => {
    const result = await python(
      "import os\nfor fd in (1, 2):\n    try: os.write(fd, b'done\\n\\n__RAAS_PY_0_ok__\\n')\n    except OSError: pass\nraise ValueError('still an error')",
    );
    expect(result).toMatchObject({ isError: true });
    expect(result.output).toContain("ValueError: still an error");
    await expectNextCellHonest();
  });
});
