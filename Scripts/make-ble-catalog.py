#!/usr/bin/env python3
"""Writes Sources/VitalSnapBluetooth/Resources/ble-peripherals.json, the Bluetooth peripheral catalog.

The facts (ids, types, makers, models, advertised-name patterns, services, characteristics, pairing, options,
timeouts, which entries are disabled) come from the public catalog of the Validic SDK 1.12.1
(../shared/reference/data/ble-peripherals-sdk-1.12.1.json; see ../shared/reference/validic-sdk-facts.md, 1b).
The instructions are this project's own words, written from what those entries say about each device (its
buttons, what its display shows); the SDK's texts are not copied.

Three entries follow them that the public catalog does not hold (LICENSED_KIT below): meters whose Bluetooth
protocol is not public, listed so that VitalSnap can say why it does not read them. Only their ids, makers,
models and kinds are known; their other fields are this project's placeholders (see LICENSED_KIT).

    Scripts/make-ble-catalog.py [path/to/ble-peripherals-sdk-1.12.1.json]

The output is committed: CI and users' clones have no ../shared.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "..", "shared", "reference", "data", "ble-peripherals-sdk-1.12.1.json")
OUT = os.path.join(ROOT, "Sources", "VitalSnapBluetooth", "Resources", "ble-peripherals.json")

TYPES = {
    "Thermometer": "thermometer",
    "Blood Pressure Monitor": "bloodPressure",
    "Heart Rate Monitor": "heartRate",
    "Glucose Meter": "glucoseMeter",
    "Weight Scale": "weightScale",
    "Pulse Oximeter": "pulseOximeter",
}

# Our own instructions per id: (to make it visible, to pair it or None, while reading).
HEART_RATE = ("Put the strap on so that the monitor starts sending.", None, "Keep still; reading the heart rate can take up to a minute.")
INSTRUCTIONS = {
    1: ("Switch the thermometer on with its power button.", None, "Put the probe in your ear and press the measure button."),
    2: ("Start a measurement with the monitor's Start button.", "Hold the Start button down until the display shows 'Pr'.",
        "Stay still and quiet until the monitor has finished measuring."),
    3: ("Start a measurement with the monitor's power button.", None, "Stay still and quiet until the monitor has finished measuring."),
    4: HEART_RATE,
    5: HEART_RATE,
    6: ("Hold the button right of the watch face until the watch shows 'Find'.", None,
        "Keep still; reading the heart rate can take up to a minute."),
    7: HEART_RATE,
    8: HEART_RATE,
    9: HEART_RATE,
    10: HEART_RATE,
    11: ("Step onto the scale to wake it, then step off.", None, "Step onto the scale and stay until your weight is taken."),
    12: ("Switch the thermometer on with its power button.", None, "Put the probe in your ear and press the measure button."),
    13: ("Clip the oximeter onto a finger.", "Clip the oximeter onto a finger.", "Keep the finger still; it can take ten seconds."),
    14: ("Stand on the scale and step off when it shows 'Step off'.", "Hold the 'Set' button under the scale until it shows 'Pr'.",
         "Stand on the scale and step off when it shows 'Step off'."),
    15: ("Press the top middle button (the one with a dot).",
         "Press the top middle button (with a dot); when asked for a code, type the last 6 digits of the serial number on the back of the meter.",
         "Wait while the meter sends its readings."),
    16: ("Step onto the scale.", None, "Stay on the scale until your weight is taken, then step off."),
    17: ("Step onto the scale.", None, "Stay on the scale until your weight is taken, then step off."),
    18: ("Switch the thermometer on and take your temperature.", None, "Wait while the reading is sent."),
    19: ("Press the power button; the measurement starts by itself. Stay still and quiet.", None, "Wait while the reading is sent."),
    20: ("Hold the slider on the left side down until the blue light comes on.", "Hold the slider on the left side down until the blue light comes on.",
         "Wait while the meter sends its readings."),
    21: ("Stand on the scale and step off once your weight is taken.",
         "Press the button under the scale to switch it on, then hold it until the Bluetooth symbol blinks on the display.",
         "Stand on the scale and step off once your weight is taken."),
    22: ("Press the power button; the measurement starts by itself. Stay still and quiet.",
         "Hold the power button until the Bluetooth symbol blinks on the display.",
         "Press the power button; the measurement starts by itself. Stay still and quiet."),
    23: ("Switch the meter on with OK (if it is on, hold OK to switch it off first).",
         "Switch the meter on with OK, then choose Settings, Wireless, Pairing, Pair Device.", "Wait while the meter sends its readings."),
    24: ("Start a measurement with the START button and stay still and quiet until it ends.",
         "Take the batteries out, press START/STOP three times, and put the batteries back.",
         "Start a measurement with the START button and stay still and quiet until it ends."),
    25: ("Switch the oximeter on and clip it onto a finger.", None, "Keep the finger still; it can take ten seconds."),
    26: ("Stand on the scale and step off once your weight is taken.", None, "Step off once your weight is taken."),
    27: ("Stand on the scale and step off once your weight is taken.", "Take the batteries out and put them back in.",
         "Step off once your weight is taken."),
    29: ("Switch the meter on with OK (if it is on, hold OK to switch it off first).",
         "Switch the meter on with OK, then choose Settings, Wireless, Pairing, Pair Device.", "Wait while the meter sends its readings."),
    30: ("Switch the meter on with the button on its side (if it is on, switch it off first).",
         "With the meter off, hold its button until the Bluetooth symbol shows; when asked, type the 6-digit PIN printed on the back of the meter.",
         "Wait while the meter sends its readings."),
    31: ("Stand on the scale and step off when it shows 'Step off'.", "Hold the 'Set' button under the scale until it shows 'Pr'.",
         "Stand on the scale and step off when it shows 'Step off'."),
    1000: ("Switch the glucose meter on.", "Pair the meter as its manual describes for phones.",
           "Keep the meter on while it sends its readings; its manual helps if they do not arrive."),
}


# Meters read only through their maker's licensed kit, with a key from the maker (BLEDeviceSecrets): the ids,
# makers, models and kinds VitalSnap was asked to list (the SDK 1.12.1 catalog ends at 31). No public source gives their advertised names, services
# or characteristics, so the name pattern matches nothing (`(?!)`, an empty negative lookahead), the services and
# characteristic are absent, pairing is not claimed, and the timeouts are the generic glucose meter's (id 1000).
NEVER_MATCHES = "(?!)"
LICENSED_KIT_READING = ("VitalSnap cannot read it: its maker has not published how it talks over Bluetooth. Reading it "
                        "takes the maker's licensed kit and a key from the maker.")
LICENSED_KIT = [
    (32, "glucoseMeter", "AgaMatrix", "Jazz Wireless 2",
     "Not readable by VitalSnap yet: AgaMatrix's protocol is private and needs its licensed kit and key "
     "(agamatrix-authkey.json in the data folder)."),
    (33, "glucoseMeter", "CVS Health", "Glucose Meter",
     "Not readable by VitalSnap yet: this meter is made by AgaMatrix, whose protocol is private and needs its "
     "licensed kit and key (cvshealth-authkey.json in the data folder)."),
    (51, "coagulationMeter", "Roche", "CoaguChek INRange",
     "Not readable by VitalSnap yet: Roche's protocol for this meter is private and needs Roche's licensed kit "
     "and the meter's own key (vitalsnap ble store-key)."),
]


def licensed_kit_entries():
    return [{
        "id": ident,
        "type": kind,
        "manufacturer": maker,
        "model": model,
        "disabled": False,
        "advertisedName": NEVER_MATCHES,
        "advertisedService": None,
        "readingService": None,
        "characteristic": None,
        "requiresPairing": False,
        "options": 0,
        "connectionTimeoutSeconds": 60,
        "readingTimeoutSeconds": 60,
        "instructions": visible,
        "pairingInstructions": None,
        "readingInstructions": LICENSED_KIT_READING,
        "requiresLicensedKit": True,
    } for ident, kind, maker, model, visible in LICENSED_KIT]


def uuid_or_none(text):
    text = (text or "").strip()
    return text or None


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else SOURCE
    with open(source) as f:
        entries = json.load(f)
    out = []
    for e in sorted(entries, key=lambda e: e["ID"]):
        ident = e["ID"]
        if ident not in INSTRUCTIONS:
            sys.exit(f"no instructions written for peripheral {ident}")
        visible, pairing, reading = INSTRUCTIONS[ident]
        if e["RequiresPairing"] and pairing is None:
            sys.exit(f"peripheral {ident} needs pairing: write its pairing instructions")
        out.append({
            "id": ident,
            "type": TYPES[e["Type"]],
            "manufacturer": e["Manufacturer"],
            "model": e["Model"],
            "disabled": bool(e["Disabled"]),
            "advertisedName": e["BroadcastingName"],
            "advertisedService": uuid_or_none(e.get("BroadcastingServiceID")),
            "readingService": uuid_or_none(e.get("ReadingServiceID")),
            "characteristic": uuid_or_none(e.get("CharacteristicID")),
            "requiresPairing": bool(e["RequiresPairing"]),
            "options": e["Options"],
            "connectionTimeoutSeconds": e["ConnectionTimeout"],
            "readingTimeoutSeconds": e["ReadingTimeout"],
            "instructions": visible,
            "pairingInstructions": pairing if e["RequiresPairing"] or e.get("PairingInstruction") else None,
            "readingInstructions": reading,
        })
    taken = {e["id"] for e in out}
    for entry in licensed_kit_entries():
        if entry["id"] in taken:
            sys.exit(f"peripheral {entry['id']} is in the source catalog now: take its facts from there")
        out.append(entry)
    out.sort(key=lambda e: e["id"])
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(out)} peripherals to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
