"""Shared test fixtures: paths to the bundled fixtures"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
SCENARIOS = sorted((FIXTURES / "scenarios").glob("*.toml"))
VECTORS = sorted((FIXTURES / "vectors").glob("*.json"))
