"""A training stage's settings from a config file: `--config Training/configs/NAME.json` sets the defaults of
the stage's own options (the JSON keys are their names, `-` or `_` alike), and options given on the command
line override them. The recipe (train.sh) keeps every stage's settings in such files, so that a run is
described by them, its seed and the commit; the paths of a run's files stay on the command line.
"""
from __future__ import annotations

import argparse
import json


def parse_args_with_config(ap: argparse.ArgumentParser, argv: list[str] | None = None) -> argparse.Namespace:
    ap.add_argument("--config", help="a JSON file of this stage's settings (Training/configs/); options given "
                    "here override it")
    first, _ = ap.parse_known_args(argv)
    if first.config:
        with open(first.config) as f:
            settings = json.load(f)
        if not isinstance(settings, dict):
            raise SystemExit(f"{first.config}: a config is a JSON object of option names and values")
        known = {a.dest for a in ap._actions}
        defaults = {}
        for key, value in settings.items():
            if key.startswith("_"):
                continue  # a comment
            dest = key.replace("-", "_")
            if dest not in known:
                raise SystemExit(f"{first.config}: `{key}` is not an option of {ap.prog}")
            defaults[dest] = value
        ap.set_defaults(**defaults)
    return ap.parse_args(argv)
