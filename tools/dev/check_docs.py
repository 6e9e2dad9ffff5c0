#!/usr/bin/python3
"""check_docs.py: the repository is self-contained.

1. Every relative link and image in README.md and doc/*.md (and results/*.md)
   resolves: the file exists inside the repository, and a #fragment names a
   heading of the target page (GitHub's anchor rules: lower case, spaces to
   '-', punctuation other than '-' and '_' dropped).
   Every repository path README.md and doc/ name (src/..., tools/...) exists.
2. No tracked text file refers to a document outside the repository (the
   names in OUTSIDE), and no document or source file (DOCLIKE) names a
   relative path that climbs above the repository root, from the file's
   folder or from the root.

Usage: check_docs.py [ROOT]  (default: the repository this script is in).
Prints one line per problem as FILE:LINE: message and exits 1 if any.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# Documents that were never part of the repository.  Named by pieces so that
# this file does not match itself.
OUTSIDE = [re.compile(p) for p in (
    r"\.\./" + "shared" + r"\b",
    r"(?<![\w/])" + "share" + "d/" + r"(DESIGN|STYLE|ref|seeds)\b",
    r"\b" + "DESIGN" + r"\.md\b",
    r"\b" + "STYLE" + r"\.md\b",
    r"\bref/" + r"(convex-contact|hunt-crossley-convex)\.md\b",
    r"\b" + "seeds" + r"/",
    r"\b[Ss]eed 0\d\d\b",
)]

DOCLIKE = (".md", ".c", ".h", ".txt", ".yaml")

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def tracked():
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True, check=True)
    return [f for f in out.stdout.decode().split("\0") if f]


def slug(text):
    """GitHub's anchor of a heading."""
    t = re.sub(r"`|\*\*|__", "", text)                 # code and emphasis marks
    t = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", t)     # links keep their text
    t = t.strip().lower()
    t = "".join(c for c in t if c.isalnum() or c in " -_")
    return t.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen, out, fence = {}, set(), False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.lstrip().startswith("```"):
                    fence = not fence
                    continue
                m = None if fence else HEADING.match(line)
                if m:
                    s = slug(m.group(2))
                    n = seen.get(s, 0)
                    seen[s] = n + 1
                    out.add(s if n == 0 else "%s-%d" % (s, n))
        cache[path] = out
    return cache[path]


def check_links(files, problems):
    for rel in files:
        path = os.path.join(ROOT, rel)
        fence = False
        with open(path, encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                if line.lstrip().startswith("```"):
                    fence = not fence
                if fence:
                    continue
                # inline code is not a link
                text = re.sub(r"`[^`]*`", "", line)
                for m in LINK.finditer(text):
                    target = m.group(1)
                    if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, mailto:, file:
                        continue
                    ref, _, frag = target.partition("#")
                    dest = os.path.normpath(os.path.join(os.path.dirname(path), ref)) if ref else path
                    if os.path.commonpath([dest, ROOT]) != ROOT:
                        problems.append("%s:%d: link leaves the repository: %s" % (rel, no, target))
                        continue
                    if not os.path.exists(dest):
                        problems.append("%s:%d: broken link: %s" % (rel, no, target))
                        continue
                    if frag and dest.endswith(".md") and frag not in anchors(dest):
                        problems.append("%s:%d: no heading '#%s' in %s" %
                                        (rel, no, frag, os.path.relpath(dest, ROOT)))


def check_paths(files, problems):
    """A repository path a page names (src/..., tools/..., ...) exists."""
    path = re.compile(r"(?<![\w./-])((?:src|tools|test|scenes|results|doc)/[\w./-]*\w)")
    for rel in files:
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                for m in path.finditer(line):
                    p = m.group(1)
                    if not os.path.exists(os.path.join(ROOT, p)):
                        problems.append("%s:%d: no such path in the repository: %s" % (rel, no, p))


def check_outside(files, problems):
    climb = re.compile(r"(?:\.\./)+[A-Za-z_][\w.-]*")
    for rel in files:
        path = os.path.join(ROOT, rel)
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue  # binary files, submodules
        if rel.startswith("test/fuzz/corpus/"):
            continue  # fuzzer inputs: bytes, not references
        for no, line in enumerate(lines, 1):
            for p in OUTSIDE:
                if p.search(line):
                    problems.append("%s:%d: refers outside the repository: %s" %
                                    (rel, no, line.strip()[:100]))
                    break
            # a script's or the Makefile's relative paths are relative to
            # where it runs (an installed tool's ../share), not references
            for m in (climb.finditer(line) if rel.endswith(DOCLIKE) else ()):
                p = m.group(0)
                from_file = os.path.normpath(os.path.join(os.path.dirname(path), p))
                from_root = os.path.normpath(os.path.join(ROOT, p))
                inside = [os.path.commonpath([d, ROOT]) == ROOT for d in (from_file, from_root)]
                if not any(inside):
                    problems.append("%s:%d: path above the repository: %s" % (rel, no, p))


def main():
    files = tracked()
    docs = [f for f in files if f == "README.md" or
            (f.endswith(".md") and f.split("/")[0] in ("doc", "results"))]
    problems = []
    check_links(docs, problems)
    check_paths([f for f in docs if not f.startswith("results/")], problems)
    check_outside([f for f in files if f != "tools/dev/check_docs.py"], problems)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
