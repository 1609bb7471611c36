#!/usr/bin/env python3
"""Carries the characters outside ASCII through argument-parser's generate-manual, which drops them.

The plugin's tool (swift-argument-parser 1.8.2, `escapedTextLine` and `escapedMacroArgument`) keeps only
ASCII: "How many past weeks of history to use (1–52)" became "(152)" and "weekday × time" lost its ×.
groff wants such a character as an escape (`\\(en` for an en dash), which the tool would escape again.

  encode   reads `gymcard --experimental-dump-help` (JSON) and writes it with each character outside
           ASCII as a placeholder of letters and digits, which the tool keeps as it is;
  decode   reads the man page and writes each placeholder, and any character outside ASCII, as groff's
           escape: a named one where groff and mandoc both have it, else \\[uXXXX].

Usage: manual-characters.py encode|decode < in > out
"""
import json
import re
import sys

# Lower-case letters and digits only: the tool escapes none of them, and the sentence splitting in
# scripts/generate-manual (a new line before a capital after ". ") treats it as the character it stands for.
PLACEHOLDER = re.compile(r"qxzu([0-9a-f]{4,6})qxz")
NAMED = {
    "\u2013": r"\(en",
    "\u2014": r"\(em",
    "\u00d7": r"\(mu",
    "\u2018": r"\(oq",
    "\u2019": r"\(cq",
    "\u201c": r"\(lq",
    "\u201d": r"\(rq",
    "\u2192": r"\(->",
    "\u2264": r"\(<=",
    "\u2265": r"\(>=",
}


def encode_text(text):
    return "".join(ch if ord(ch) < 128 else f"qxzu{ord(ch):04x}qxz" for ch in text)


def encode(value):
    if isinstance(value, str):
        return encode_text(value)
    if isinstance(value, list):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        return {key: encode(item) for key, item in value.items()}
    return value


def groff(ch):
    return ch if ord(ch) < 128 else NAMED.get(ch, f"\\[u{ord(ch):04X}]")


def decode(text):
    text = PLACEHOLDER.sub(lambda match: chr(int(match.group(1), 16)), text)
    return "".join(groff(ch) for ch in text)


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "encode":
        json.dump(encode(json.load(sys.stdin)), sys.stdout, ensure_ascii=True)
    elif mode == "decode":
        sys.stdout.write(decode(sys.stdin.read()))
    else:
        sys.exit("usage: manual-characters.py encode|decode < in > out")
