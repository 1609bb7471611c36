#!/usr/bin/env python3
"""Adds each option's default, as `--help` shows it, to the man page argument-parser's plugin wrote.

The plugin (swift-argument-parser 1.8.2) leaves defaults out; `--help` prints "(default: 2.0)" after an
option's abstract, or "(default as flag: terminal)" for an option whose value may be left out. This reads
the defaults from `gymcard --experimental-dump-help` (the same definitions both come from) and appends
the same words to the abstract of each option's item, for the command the item belongs to.

Usage: manual-defaults.py GYMCARD < generated.1 > with-defaults.1
"""
import json
import subprocess
import sys

gymcard = sys.argv[1]
tool = json.loads(subprocess.run([gymcard, "--experimental-dump-help"], check=True, capture_output=True).stdout)


def defaults_of(command, path):
    """{(command path, option name): "default: X" or "default as flag: X"} for the command and below."""
    found = {}
    help_text = None
    for argument in command.get("arguments") or []:
        if "defaultValue" not in argument or argument.get("kind") != "option" or not argument.get("shouldDisplay"):
            continue
        value = argument["defaultValue"]
        if help_text is None:
            help_text = " ".join(
                subprocess.run([gymcard, *path, "--help"], check=True, capture_output=True, text=True).stdout.split())
        words = "default as flag" if f"(default as flag: {value})" in help_text else "default"
        for name in argument.get("names") or []:
            dashes = "-" if name["kind"] == "short" else "--"
            found[(tuple(path), dashes + name["name"])] = f"{words}: {value}"
    for subcommand in command.get("subcommands") or []:
        found.update(defaults_of(subcommand, path + [subcommand["commandName"]]))
    return found


defaults = defaults_of(tool["command"], [])
lines = sys.stdin.read().split("\n")
# Each command's items are in a .Bl list opened after its `.It Em <name>` item; lists inside a
# discussion open with no command item before them and belong to the command around them.
stack = []  # per open .Bl: the command path it lists, or None for a list inside a discussion
pending = []  # the command path named by the last `.It Em`, until its list opens (first: the root's)
path = []
out = []
index = 0
while index < len(lines):
    line = lines[index]
    out.append(line)
    if line.startswith(".Bl"):
        stack.append(pending)
        if pending is not None:
            path = pending
        pending = None
    elif line.startswith(".El"):
        stack.pop()
        open_commands = [entry for entry in stack if entry is not None]
        path = open_commands[-1] if open_commands else []
    elif line.startswith(".It Em "):
        pending = path + [line[len(".It Em "):].strip()]
    elif line.startswith(".It Fl ") and stack and stack[-1] is not None:
        # `.It Fl d , -days Ar n` names -d and --days.
        words = line.split()[2:]
        words = words[: words.index("Ar")] if "Ar" in words else words
        names = ["-" + word for word in words if word != ","]
        default = next((defaults[(tuple(path), name)] for name in names if (tuple(path), name) in defaults), None)
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if default and following and not following.startswith("."):
            out.append(following.rstrip() + f" ({default})")
            index += 1
    index += 1
sys.stdout.write("\n".join(out))
