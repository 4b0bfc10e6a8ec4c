"""Shared fixtures of the package's tests: the `frontier` binary the traces are
compared with and checked by (FRONTIER_BIN, else the workspace's target/ build)."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# The five Wild-West rulesets and their shipped variants, with a number of players each.
WILD_WEST = [
    ("go-west", 4),
    ("way-out-west", 5),
    ("gold-west", 3),
    ("circle-the-wagons", 2),
    ("grand-junction", 6),
    ("grand-junction-simplified", 4),
]


@pytest.fixture(scope="session")
def frontier_bin():
    given = os.environ.get("FRONTIER_BIN")
    candidates = [given] if given else [
        ROOT / "target" / "release" / "frontier",
        ROOT / "target" / "debug" / "frontier",
    ]
    for c in candidates:
        if c and pathlib.Path(c).is_file():
            return str(c)
    raise FileNotFoundError(
        "no frontier binary: build it (cargo build -p frontier) or set FRONTIER_BIN"
    )
