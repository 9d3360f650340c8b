#!/usr/bin/env python3
"""Counts the fractional number literals in the reader's code, outside its configuration types.

Every threshold the reader keeps is a named, documented field of its stage's configuration (a type whose name
ends in `Configuration`, such as `RuleCharacterRecognizer.Configuration`); a number like `0.35` anywhere else
is a threshold nobody named. This counts them, so that the count can only go down.

What counts: a floating-point literal (`0.35`, `1.5`, `1e-12`) in Swift code under the folder given (default
Sources/VitalSnapOCR), outside comments and string literals, and outside the body of any struct, enum or
extension whose name ends in `Configuration`. Integers are not counted.

    Scripts/count-fractional-literals.py                 # the count per file and the total
    Scripts/count-fractional-literals.py --check 40      # exit 1 when the total is over 40, or a file over 400 lines
    Scripts/count-fractional-literals.py --list          # every literal counted, with its file and line
"""
import argparse
import os
import re
import sys

LITERAL = re.compile(r"(?<![\w.])(?:\d[\d_]*\.\d[\d_]*(?:[eE][+-]?\d+)?|\d[\d_]*[eE][+-]?\d+)(?![\w.])")
CONFIGURATION = re.compile(r"\b(?:struct|enum|extension|class)\s+(?:[\w.]*\.)?\w*Configuration\b[^{]*\{")


def code_only(text):
    """The text with comments and string literals blanked (newlines kept, so line numbers stay)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def configuration_spans(code):
    """(start, end) offsets of the bodies of configuration types."""
    spans = []
    for m in CONFIGURATION.finditer(code):
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        spans.append((m.start(), j))
    return spans


def literals(path):
    text = open(path, encoding="utf-8").read()
    code = code_only(text)
    spans = configuration_spans(code)
    found = []
    for m in LITERAL.finditer(code):
        if any(a <= m.start() < b for a, b in spans):
            continue
        found.append((code.count("\n", 0, m.start()) + 1, m.group()))
    return found, text.count("\n") + (0 if text.endswith("\n") else 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default="Sources/VitalSnapOCR")
    parser.add_argument("--check", type=int, metavar="N", help="exit 1 when over N literals, or a file over --max-lines")
    parser.add_argument("--max-lines", type=int, default=400)
    parser.add_argument("--list", action="store_true", help="every literal counted, with its file and line")
    a = parser.parse_args()
    total, long_files, rows = 0, [], []
    for root, _, names in os.walk(a.folder):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(root, name)
            found, lines = literals(path)
            total += len(found)
            if lines > a.max_lines:
                long_files.append((path, lines))
            if found:
                rows.append((len(found), path, found))
    for count, path, found in sorted(rows, key=lambda r: (-r[0], r[1])):
        print(f"{count:4d}  {path}")
        if a.list:
            for line, literal in found:
                print(f"        {path}:{line}: {literal}")
    print(f"{total:4d}  fractional literals outside configuration types in {a.folder}")
    for path, lines in long_files:
        print(f"      {path}: {lines} lines (over {a.max_lines})")
    if a.check is not None and (total > a.check or long_files):
        print(f"over the limit: at most {a.check} literals and {a.max_lines} lines a file", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
