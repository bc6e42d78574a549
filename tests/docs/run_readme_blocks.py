#!/usr/bin/env python3
"""Examples are tests (in the spirit of SimGrid's tesh files): every shell command block of every README.md runs, and
its output is compared where the README shows it.

Which blocks run: every fenced block tagged `sh`, `bash`, `shell` or `console` in README.md and in every folder's
README.md (`git ls-files`, so build folders and untracked files are left out). An untagged block whose first line
looks like a command (`build/bin/ompisim`, `ompisim`, `./`, `cmake`) is an error: tag it `sh` (or `text` when it is
not one). Other blocks (json, cpp, diagrams) are not run unless a marker says so.

Markers: HTML comments (invisible on the rendered page) on the lines right before a block's opening fence (blank lines
between are allowed), one or more per block:
  <!-- readme-test: skip (REASON) -->         the block does not run; the reason is required and is printed
  <!-- readme-test: skip-line "TEXT" (REASON) -->  the lines of the block containing TEXT (with their continuation
                                              lines) do not run; the reason is required and is printed
  <!-- readme-test: exit N -->                the block must end with exit status N (default 0)
  <!-- readme-test: file NAME -->             this block (json, ...) is written as NAME in the working folder, for the
                                              command blocks after it to use
  <!-- readme-test: output -->                this block is the output (stdout, then stderr) of the command block
                                              just before it, compared line by line
An unknown marker, a marker with nothing after it, or a skip without a reason is an error.

How a block runs: as one bash script (`set -eo pipefail`; with `exit N` without -e, so the status is the last
command's), in a working folder made for the README (one per README, shared by its blocks in order) in a temporary
directory: it holds a symbolic link to every top-level entry of the repository (so `scenarios/...`, `results/` and
`models/...` read as in the repository) and `build/bin/ompisim`, a link to the tool under test, which is also first on
PATH (so `ompisim` alone works too). Every `/tmp/` in a block is replaced by a temporary folder of the test, so the
examples' `--out /tmp/x` never touch the machine's /tmp. A block still running after 120 s is killed (its whole process
group) and fails: a long example is shown with smaller arguments or marked skip with its run time. Nothing in the repository is written: when the source folder
is a git checkout, `git status --porcelain` must be the same after the run as before.

Output comparison (the `output` block against what the command block printed; trailing blanks ignored):
  {n}      in a line matches one number (`-12`, `3.5`, `1e-06`, `4.72`), for values that legitimately move when a
           model changes
  {*}      matches any text within a line
  ...      a line holding only `...` matches any number of lines (none included)
Everything else matches literally. Before comparing, the test's temporary folder is written back as /tmp/ and the
working folder as `./` (so `wrote ./ompisim-out/<id>/<id>.json` is what a README shows).

Usage: run_readme_blocks.py OMPISIM SOURCE_DIR [README ...]   (exit 1 when any block fails; one line per block)"""
import os, re, shutil, signal, subprocess, sys, tempfile, time

RUN_TAGS = {"sh", "bash", "shell", "console"}
MARKER = re.compile(r"^\s*<!--\s*readme-test:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
LOOKS_LIKE_COMMAND = re.compile(r"^\s*(build/bin/ompisim|ompisim|\./|cmake )")
BLOCK_TIMEOUT_S = 120
NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


class Block:
    def __init__(self, doc, line, tag, text, markers):
        self.doc, self.line, self.tag, self.text, self.markers = doc, line, tag, text, markers
        self.output = None  # the Block shown as this block's output


def parse_marker(m, where):
    """One marker's text -> (kind, argument); raises ValueError naming the problem."""
    kinds = {"skip": r"skip\s+\((.+)\)", "skip-line": r'skip-line\s+"([^"]+)"\s+\((.+)\)', "exit": r"exit\s+(\d+)",
             "file": r"file\s+([\w.+-]+)", "output": r"output"}
    for kind, pattern in kinds.items():
        got = re.fullmatch(pattern, m)
        if got:
            return kind, got.groups()
    raise ValueError(f"{where}: marker 'readme-test: {m}' not understood (skip (REASON), skip-line \"TEXT\" (REASON),"
                     " exit N, file NAME, output)")


def blocks_of(doc, text):
    """The fenced blocks of one document with their markers; the `output` blocks attached to the block before."""
    lines, out, pending, i = text.split("\n"), [], [], 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if m:
            pending.append(parse_marker(m.group(1), f"{doc}:{i + 1}"))
            i += 1
            continue
        f = FENCE.match(lines[i])
        if not f:
            if lines[i].strip():
                if pending:
                    raise ValueError(f"{doc}:{i + 1}: readme-test marker not followed by a fenced block")
            i += 1
            continue
        fence, start, body = f.group(2), i + 1, []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i])
            i += 1
        i += 1
        block = Block(doc, start, f.group(3).lower(), "\n".join(body), pending)
        pending = []
        if any(k == "output" for k, _ in block.markers):
            if not out or out[-1].tag not in RUN_TAGS:
                raise ValueError(f"{doc}:{start}: an output block must follow a command block")
            out[-1].output = block
            continue
        if not block.tag and body and LOOKS_LIKE_COMMAND.match(body[0]):
            raise ValueError(f"{doc}:{start}: untagged block starts with a command: tag it sh (or text)")
        out.append(block)
    return out


def output_regex(expected):
    """The expected output (with {n}, {*} and '...' lines) as one regular expression over the whole output."""
    parts = []
    for line in expected.rstrip("\n").split("\n"):
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        pieces = re.split(r"(\{n\}|\{\*\})", line.rstrip())
        body = "".join(NUMBER if p == "{n}" else "[^\n]*" if p == "{*}" else re.escape(p) for p in pieces)
        parts.append(body + r"[ \t]*\n")
    return re.compile("".join(parts) + r"\Z")


def script_of(block, tmp):
    """The block as a bash script: skip-line lines (and their continuations) removed, /tmp/ redirected."""
    skips = [a for k, a in block.markers if k == "skip-line"]
    kept, skipping, dropped = [], False, []
    for line in block.text.split("\n"):
        if not skipping and any(text in line for text, _ in skips):
            skipping = True
            dropped.append(line.strip())
        if not skipping:
            kept.append(line)
        skipping = skipping and line.rstrip().endswith("\\")
    for text, _ in skips:
        if not any(text in d for d in dropped):
            raise ValueError(f"{block.doc}:{block.line}: skip-line \"{text}\" matches no line of the block")
    body = "\n".join(kept).replace("/tmp/", tmp + "/")
    expected = next((int(a[0]) for k, a in block.markers if k == "exit"), 0)
    head = "set -o pipefail\n" if expected else "set -eo pipefail\n"
    trap = "trap 'echo \"readme-test: failed: $BASH_COMMAND\" >&2' ERR\n" if not expected else ""
    return head + trap + body + "\n", expected, [f"{t!r} ({r})" for t, r in skips]


def workdir(root, tool, base):
    """A folder that reads like the repository (links to its top-level entries) with build/bin/ompisim -> tool.
    The default output folder (ompisim-out/) is not linked, so a block's run without --out writes into the test's
    folder, not into the repository's."""
    os.makedirs(base)
    for entry in os.listdir(root):
        if entry not in (".git", "build", "ompisim-out") and not entry.startswith("build-"):
            os.symlink(os.path.join(root, entry), os.path.join(base, entry))
    os.makedirs(os.path.join(base, "build", "bin"))
    os.symlink(os.path.abspath(tool), os.path.join(base, "build", "bin", "ompisim"))
    return base


def run_block(block, cwd, tmp):
    script, expected, skipped = script_of(block, tmp)
    env = dict(os.environ, PATH=os.path.join(cwd, "build", "bin") + os.pathsep + os.environ.get("PATH", ""))
    t0 = time.monotonic()
    where = f"{block.doc}:{block.line}"
    proc = subprocess.Popen(["bash", "-c", script], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=BLOCK_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the block's whole process group, tools it started included
        proc.communicate()
        return False, f"FAIL {where}: still running after {BLOCK_TIMEOUT_S} s (mark it skip with the reason)"
    p = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    took = time.monotonic() - t0
    note = f" (lines skipped: {', '.join(skipped)})" if skipped else ""
    if p.returncode != expected:
        return False, (f"FAIL {where}: exit {p.returncode}, the README expects {expected} ({took:.1f} s)\n"
                       f"{p.stdout[-3000:]}{p.stderr[-3000:]}")
    if block.output is not None:
        got = (p.stdout + p.stderr).replace(tmp + "/", "/tmp/").replace(cwd + "/", "./")
        got = "\n".join(line.rstrip() for line in got.rstrip("\n").split("\n")) + "\n"
        if not output_regex(block.output.text).match(got):
            return False, (f"FAIL {where}: output differs from the block at {block.doc}:{block.output.line}\n"
                           f"--- shown in the README\n{block.output.text}\n--- printed\n{got}")
    shown = ", output checked" if block.output is not None else ""
    return True, f"ok   {where} ({took:.1f} s{shown}){note}"


def documents(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "README.md", "*/README.md"], capture_output=True, text=True)
    return sorted(out.stdout.split()) if out.returncode == 0 else ["README.md"]


def git_status(root):
    p = subprocess.run(["git", "-C", root, "status", "--porcelain"], capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else None


def run_document(doc, root, tool, tmp):
    """Runs one README's blocks in order in its own working folder; returns (ok, printed lines)."""
    with open(os.path.join(root, doc), encoding="utf-8") as fh:
        blocks = blocks_of(doc, fh.read())
    cwd = workdir(root, tool, os.path.join(tmp, "work-" + doc.replace("/", "_")))
    scratch = os.path.join(tmp, "tmp-" + doc.replace("/", "_"))
    os.makedirs(scratch)
    ok, lines = True, []
    for b in blocks:
        files = [a[0] for k, a in b.markers if k == "file"]
        for name in files:
            with open(os.path.join(cwd, name), "w", encoding="utf-8") as fh:
                fh.write(b.text + "\n")
        skip = [a[0] for k, a in b.markers if k == "skip"]
        if skip:
            lines.append(f"skip {b.doc}:{b.line}: {skip[0]}")
        elif b.tag in RUN_TAGS:
            good, line = run_block(b, cwd, scratch)
            ok, lines = ok and good, lines + [line]
    return ok, lines


def main(argv):
    if len(argv) < 3:
        print(__doc__.split("\n\n")[-1], file=sys.stderr)
        return 2
    tool, root, only = argv[1], os.path.abspath(argv[2]), argv[3:]
    before, ok = git_status(root), True
    tmp = tempfile.mkdtemp(prefix="readme-blocks-")
    try:
        for doc in only or documents(root):
            try:
                good, lines = run_document(doc, root, tool, tmp)
            except ValueError as e:
                good, lines = False, [f"FAIL {e}"]
            ok = ok and good
            if lines:
                print("\n".join(lines), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    after = git_status(root)
    if before is not None and after != before:
        changed = sorted(set(after.splitlines()) ^ set(before.splitlines()))
        print("FAIL the examples wrote into the repository (git status changed during the run):\n" + "\n".join(changed))
        ok = False
    print("every README command block ran as shown" if ok else "some README command blocks fail")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
