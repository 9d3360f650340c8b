#!/usr/bin/env python3
"""Prints one setting of a config file (Training/configs/), for train.sh: `config_value.py FILE KEY`."""
import json
import sys

if len(sys.argv) != 3:
    sys.exit("usage: config_value.py FILE KEY")
with open(sys.argv[1]) as f:
    settings = json.load(f)
if sys.argv[2] not in settings:
    sys.exit(f"{sys.argv[1]}: no `{sys.argv[2]}`")
print(settings[sys.argv[2]])
