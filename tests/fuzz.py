"""A seeded generator of hostile campaign and scenario files, and a driver that runs every command on them

The files start from the bundled examples and are bent the ways a fuzzing pass found bugs (issue 30): values of the
wrong type, values of megabytes, tables and arrays nested hundreds deep, dotted keys of thousands of parts, other
encodings (UTF-16, Latin-1, a byte order mark, broken UTF-8, NUL), control and invisible format characters, sides of
thousands of members. The same seed gives the same files.

`python -m tests.fuzz CASES.json` runs each case (a command line of ambush) in this process, each held to a time
limit by an alarm, under the memory limit the caller set; it prints one JSON line per case: its exit code, what the
command printed, the exception that escaped (if any) and its seconds. tests/test_fuzz.py runs a few dozen in the suite,
benchmarks/fuzz.py hundreds.
"""

from __future__ import annotations

import json
import random
import re
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGNS = sorted((ROOT / "fixtures" / "campaigns").glob("*.toml"))
SCENARIOS = sorted((ROOT / "fixtures" / "scenarios").glob("*.toml"))
COMMANDS = {"campaign": [["validate"], ["build", "--target", "all"]],
            "scenario": [["odds"], ["odds", "--json"], ["odds", "--svg", "{out}.svg"], ["simulate", "--seed", "3"],
                         ["simulate", "--seed", "3", "--json"]]}
STRING_VALUE = re.compile(r'^(?P<key>[A-Za-z0-9_."-]+) = "(?P<value>[^"\\\n]*)"$', re.M)
ANY_VALUE = re.compile(r"^(?P<key>[A-Za-z0-9_.\"-]+) = (?P<value>.+)$", re.M)
# Characters a name must not hide: C0 and C1 controls, bidi overrides and isolates, zero width, BOM, soft hyphen.
HOSTILE_CHARACTERS = ["\\u0000", "\\u0007", "\\u001b", "\\u007f", "\\u0085", "\\u202e", "\\u2066", "\\u200b",
                      "\\ufeff", "\\u00ad", "\\u061c", "\\n", "\\r", "<script>", "${x}", "{{x}}", "%", "\\\"", "'",
                      "`", "</", "__proto__", "constructor", "\\U0001f600", "\\u0301"]
WRONG_VALUES = ["1", "-1", "1e400", "nan", "inf", "-0", "true", "1979-05-27", "07:32:00", "[]", "{}", "[1, \"a\"]",
                "{ a = 1 }", '""', '"' + "x" * 300 + '"', "9223372036854775807", "0x7fffffffffffffff", "[[]]",
                '"\\u0000"', "'''\nmulti\nline'''"]


@dataclass(frozen=True)
class Hostile:
    """One generated file: its kind (campaign or scenario), its name (what was bent) and its bytes"""

    kind: str
    name: str
    data: bytes


def bend(rng: random.Random, kind: str, text: str, big: int) -> tuple[str, str | bytes]:
    """Bend one example's text one way; return what was done and the new text (or bytes, for an encoding)"""
    values = list(STRING_VALUE.finditer(text))
    anything = list(ANY_VALUE.finditer(text))
    way = rng.choice(["long value", "hostile characters", "wrong type", "deep arrays", "deep tables",
                      "dotted key", "deep header", "encoding", "many members", "truncated", "duplicate key",
                      "long key", "control bytes", "comment", "comment"])
    if way == "long value" and values:
        found = rng.choice(values)
        filler = rng.choice(["A", "é", "中", "\\u202e", "<"]) * rng.randrange(big // 10, big)
        return f"{way} ({found['key']})", text[:found.start("value")] + filler + text[found.end("value"):]
    if way == "hostile characters" and values:
        found = rng.choice(values)
        inserted = "".join(rng.choice(HOSTILE_CHARACTERS) for _ in range(rng.randrange(1, 6)))
        value = found["value"]
        cut = rng.randrange(len(value) + 1)
        return f"{way} ({found['key']})", (text[:found.start("value")] + value[:cut] + inserted + value[cut:]
                                           + text[found.end("value"):])
    if way == "wrong type" and anything:
        found = rng.choice(anything)
        return f"{way} ({found['key']})", text[:found.start("value")] + rng.choice(WRONG_VALUES) + text[found.end():]
    if way in ("deep arrays", "deep tables"):
        depth = rng.choice([30, 33, 64, 200, 450, 1000, 5000])
        value = "[" * depth + "]" * depth if way == "deep arrays" else "{ a = " * depth + "1" + " }" * depth
        return f"{way} ({depth})", f"deep = {value}\n" + text
    if way == "dotted key":
        parts = rng.choice([20, 40, 1000, 20_000])
        return f"{way} ({parts} parts)", ".".join(["a"] * parts) + " = 1\n" + text
    if way == "deep header":
        parts = rng.choice([20, 33, 500, 5000])
        return f"{way} ({parts} parts)", text + "\n[" + ".".join(["t"] * parts) + "]\nx = 1\n"
    if way == "encoding":
        codec = rng.choice(["utf-16", "utf-16-be", "latin-1", "utf-8-sig", "cp1252", "broken utf-8"])
        if codec == "broken utf-8":
            data = text.encode("utf-8")
            at = rng.randrange(len(data))
            return f"{way} ({codec})", data[:at] + b"\xc3\x28\xff" + data[at:]
        return f"{way} ({codec})", text.replace('"', '"é', 1).encode(codec, "replace")
    if way == "many members" and kind == "scenario":
        count = rng.choice([100, 1000, 10_001, big // 20])
        member = "\n".join(f'[[sides.a.members]]\nname = "m{i}"\niq = 10\ndex = 12\nsequence = 10'
                           for i in range(count))
        return f"{way} ({count})", text + "\n" + member + "\n"
    if way == "truncated":
        return way, text[:rng.randrange(len(text))]
    if way == "duplicate key" and anything:
        found = rng.choice(anything)
        return f"{way} ({found['key']})", text[:found.end()] + "\n" + found.group() + text[found.end():]
    if way == "long key":
        return way, text + "\n[options]\n" + '"' + "k" * rng.choice([256, 257, 100_000]) + '" = 1\n'
    if way == "control bytes":
        at = rng.randrange(len(text))
        return way, text[:at] + rng.choice(["\x00", "\x1b[31m", "\r", "\x0c", "\u2028", "\x7f"]) + text[at:]
    if way == "comment":  # what a comment holds is never read: the file stays good
        noise = "".join(rng.choice(["\u202e", "\u200b", "😀", "<script>", "${x}", "é", "\t", "\\"]) for _ in range(50))
        return way, f"# {noise}\n" + text + f"\n# {noise * rng.randrange(1, big // 50)}\n"
    return "unchanged", text


def hostile_files(seed: int, count: int, big: int = 200_000) -> list[Hostile]:
    """count hostile files, half campaigns and half scenarios; big bounds the longest value and the crowd"""
    rng = random.Random(seed)
    files = []
    for index in range(count):
        kind = "campaign" if index % 2 == 0 else "scenario"
        example = rng.choice(CAMPAIGNS if kind == "campaign" else SCENARIOS)
        text = example.read_text(encoding="utf-8")
        names = []
        for _ in range(rng.choice([1, 1, 2, 3])):  # now and then bent twice or three times
            name, bent = bend(rng, kind, text, big)
            names.append(name)
            if isinstance(bent, bytes):
                files.append(Hostile(kind, f"{example.stem}: {', '.join(names)}", bent))
                break
            text = bent
        else:
            files.append(Hostile(kind, f"{example.stem}: {', '.join(names)}", text.encode("utf-8")))
    return files


def write_cases(files: list[Hostile], folder: Path) -> list[dict]:
    """Write the files into folder and return every command that reads each: {"file", "name", "args", "out"}"""
    cases = []
    for index, hostile in enumerate(files):
        path = folder / f"{index:04d}-{hostile.kind}.toml"
        path.write_bytes(hostile.data)
        for command in COMMANDS[hostile.kind]:
            out = folder / f"{index:04d}-{command[0]}-out"
            args = [a.replace("{out}", str(out)) for a in command]
            args = [args[0], str(path), *args[1:]] + (["--out", str(out)] if command[0] == "build" else [])
            cases.append({"file": str(path), "name": hostile.name, "args": args, "out": str(out)})
    return cases


class OutOfTime(Exception):
    """The alarm of a case rang"""


def run_cases(cases: list[dict], seconds: int) -> None:
    """Run each case in this process with click's test runner, held to seconds; print a JSON line per case"""
    from click.testing import CliRunner

    from exporter.cli import main

    def ring(signum: int, frame: object) -> None:
        raise OutOfTime

    signal.signal(signal.SIGALRM, ring)
    for case in cases:
        started = time.perf_counter()
        signal.alarm(seconds)
        try:
            result = CliRunner().invoke(main, case["args"])
            code, output = result.exit_code, result.output
            escaped = (None if result.exception is None or isinstance(result.exception, SystemExit)
                       else f"{type(result.exception).__name__}: {str(result.exception)[:200]}")
        except OutOfTime:
            code, output, escaped = None, "", "out of time"
        finally:
            signal.alarm(0)
        print(json.dumps({**case, "code": code, "output": output[:2000], "output_length": len(output),
                          "escaped": escaped, "seconds": time.perf_counter() - started}), flush=True)


if __name__ == "__main__":
    run_cases(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")), int(sys.argv[2]))
