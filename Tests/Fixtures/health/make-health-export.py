#!/usr/bin/env python3
"""Makes synthetic Apple Health exports (the Health app's export.zip / export.xml) for tests and benchmarks.

The output has the shape of a real "Export All Health Data" from the Health app (HealthKit Export Version 14):
an XML declaration, an internal DTD, <HealthData locale="en_US">, <ExportDate>, <Me>, then every <Record>
grouped by type and in time order within a type, then the <Correlation>s, the <Workout>s and one
<ActivitySummary> per day. Everything is derived from --seed: the same arguments give the same XML and manifest
on every Python 3.9+ (the zip's headers differ a little between Python releases: zipfile's zip64 fields).
Standard library only; the XML is streamed (into the zip entry for .zip), so 1 GB needs little memory (~60 MB,
about 35 s; 100 MB takes about 3 s).

Usage (from the repository root):

    Tests/Fixtures/health/make-health-export.py OUT [--seed N] [--days D | --size SIZE] [--end-date YYYY-MM-DD]
                                                [--zip] [--xml-name NAME] [--malformed KIND[,KIND...]] [--absurd]
                                                [--manifest FILE.json] [--density F]

    Tests/Fixtures/health/make-health-export.py /tmp/h.zip --days 3 --manifest /tmp/h.json  # a test export
    Tests/Fixtures/health/make-health-export.py /tmp/big.zip --size 1G                      # a benchmark export
    Tests/Fixtures/health/make-health-export.py /tmp/x.xml --days 2 --malformed dtd,control-chars --absurd

OUT        ends in .zip (or give --zip): apple_health_export/export_cda.xml comes FIRST in the archive (so an
           importer that takes the first .xml gets the wrong file), then apple_health_export/<--xml-name>, then
           apple_health_export/workout-routes/route_YYYY-MM-DD_H.MMam.gpx for the newest outdoor run, as real
           exports have. export_cda.xml has two root elements, as real ones do (not well-formed). OUT ending in
           .xml is the plain export.xml.
--days D   D whole days ending on --end-date (default 7 days ending 2026-11-20). ExportDate is 09:00 local on
           the morning after --end-date, so every day is complete.
--size S   instead of --days: as many days (going back in time) as make the XML about S bytes (K, M, G suffixes
           are powers of 1024). Records are grouped by type, so the days are counted first: a dry run of 28
           days gives the bytes per day. One day is the least (about 440 KB; less with --density).
           Dates go back as far as the size needs (1 GB is about 2550 days, back to late 2019).
--xml-name the XML's name in the zip (e.g. exportar.xml): importers must find it by content, not by name.
--absurd   three implausible values each: a blood glucose of 90000 mg/dL, a body mass of -5 kg, a heart rate of
           0 count/min.
--density  0 < F <= 1 thins the many-per-day series (steps, distance, energy, heart rate, audio, exercise
           minutes, HRV beats) for small test files: 1 gives steps about every 10 minutes while awake, 0.1 about
           every 100 minutes; --days 1 --density 0.05 is about 110 KB of XML, a 10 KB zip.
--manifest writes a JSON account of what was written (see below).
--malformed, any of (combinable):
  dtd               the iOS 16 (HealthKit Export Version 12) DTD, as in the patch people passed around for it
                    (discussions.apple.com thread 254202523): the <!ATTLIST VisionPrescription ...> is never
                    closed, and after the last declaration a stray attribute line, a second <!ELEMENT
                    MetadataEntry> with its ATTLIST, and an extra ">" come before "]>". expat says "syntax error"
                    and libxml2 rejects it too.
  control-chars     a vertical tab (\\x0b, not allowed in XML 1.0) at the end of the sourceName of about 25
                    top-level Records spread over the file (where iOS 16 put them is not documented; this place is
                    a guess).
  attribute-spaces  every Health Mate body-fat Record in the 2015 shape of openradar 21431305: the Withings
                    metadata written as attributes whose names have spaces (Health Mate App Version="..."
                    Withings User Identifier="..." ...) instead of <MetadataEntry> children.
  truncated         the XML stops at a random byte in its second half (inside the zip, which stays valid).
  truncated-zip     the .zip file itself is cut at a random byte in its second half (a broken download).
  broken-middle     around the middle of the file the fragment ` <Record type="HKQuantity` with no end, then the
                    export goes on: the file is not well-formed from there.

What is in it (sources: "Sam's Apple Watch" and "Sam's iPhone" with the typographic apostrophe and, as real
Watch names have, a no-break space in "Apple Watch"; "Health" for entries typed into the Health app; the apps
"Health Mate", "Contour Diabetes", "MyFitnessPal", "AutoSleep", "Strava"):
  - blood glucose in mg/dL (Contour Diabetes) and mmol<180.1558800000541>/L (typed in), with
    HKBloodGlucoseMealTime 1 (preprandial) or 2 (postprandial) on most and HKWasUserEntered;
  - blood pressure as HKCorrelationTypeIdentifierBloodPressure holding a Diastolic and a Systolic Record, the
    two Records also at top level, most with a Health Mate HeartRate Record at the same startDate;
  - heart rate (Watch every 4-10 minutes, every minute in workouts), resting heart rate, body temperature in degC
    and degF, oxygen saturation (unit "%", value a fraction such as 0.97);
  - body mass (kg, and lb typed in), BMI (count), body fat (%, a fraction), lean body mass, height (cm and in);
  - steps and distance (km from the iPhone, mi from the Watch, overlapping as real data does), flights, active
    and basal energy (kcal from the Watch, Cal from Health Mate), stand hours (Stood/Idle), stand time and
    exercise time (min);
  - workouts: Watch runs, walks and strength sessions in the modern form (WorkoutStatistics children, metadata
    with HKTimeZone, WorkoutEvents: segments, sometimes a pause and resume), Strava rides and everything before
    iOS 16 (2022-09-12) in the old form (totalDistance/totalEnergyBurned attributes); the newest outdoor run has
    a WorkoutRoute;
  - sleep: InBed from the iPhone, AsleepCore/AsleepDeep/AsleepREM/Awake from the Watch (Asleep before iOS 16),
    AsleepUnspecified from AutoSleep (which writes the old Asleep every third night), nights spanning midnight;
  - dietary energy, carbohydrates, protein, fat, sodium (mg), sugar, fiber from MyFitnessPal: meals as
    HKCorrelationTypeIdentifierFood (and the same Records at top level), snacks at top level only; water (mL);
  - mindful sessions; one ActivitySummary per day;
  - types an importer is expected to skip: EnvironmentalAudioExposure, HeadphoneAudioExposure, WalkingSpeed,
    HeartRateVariabilitySDNN (with its nested HeartRateVariabilityMetadataList), HKDataTypeSleepDurationGoal.
The first and the last day hold every kind, so even --days 1 has them all. Dates are local time in
America/Los_Angeles (US daylight-saving rules since 2007, applied to every year), as the export prints them:
"2026-11-20 07:41:00 -0800".

Manifest keys (counts are of what was written; an item cut by truncation is not counted at all):
  arguments, export_date, date_range {first_day, last_day, days, earliest_start, latest_end, first_summary,
  last_summary}, sources,
  elements (every element name -> count, nested Records included), top_level_records, nested_records,
  records_by_type and records_by_type_unit (top-level Records; unit "" for category records),
  nested_records_by_type, records_by_source, correlations_by_type, workouts_by_activity_type, workouts_by_form
  {statistics, totals}, activity_summaries, metadata_by_key, unmapped_types, absurd {count, by_type, values},
  malformed {kind: what and where (the first place): byte offset and line of the item or declaration at fault
  (parsers report the error a few characters or a line later), count, records_before, records_before_by_type;
  truncated also names the cut_item}, first_error (the earliest such place in the XML: the top-level Records a
  strict parser sees before failing), well_formed, bytes {xml, file, zip_entries}.
"""
import argparse
import calendar
import datetime as dt
import json
import math
import os
import random
import sys
import time
import zipfile
from collections import Counter

# ---------------------------------------------------------------------------------------------------------
# HealthKit identifiers and units

Q = "HKQuantityTypeIdentifier"
K = "HKCategoryTypeIdentifier"
STEPS, DISTANCE, FLIGHTS = Q + "StepCount", Q + "DistanceWalkingRunning", Q + "FlightsClimbed"
ACTIVE, BASAL = Q + "ActiveEnergyBurned", Q + "BasalEnergyBurned"
EXERCISE, STAND_TIME, STAND_HOUR = Q + "AppleExerciseTime", Q + "AppleStandTime", K + "AppleStandHour"
HEART, RESTING, SPO2, TEMP = Q + "HeartRate", Q + "RestingHeartRate", Q + "OxygenSaturation", Q + "BodyTemperature"
GLUCOSE, SYSTOLIC, DIASTOLIC = Q + "BloodGlucose", Q + "BloodPressureSystolic", Q + "BloodPressureDiastolic"
MASS, BMI, FAT, LEAN, HEIGHT = (Q + "BodyMass", Q + "BodyMassIndex", Q + "BodyFatPercentage", Q + "LeanBodyMass",
                                Q + "Height")
ENERGY_IN, CARBS, PROTEIN, FAT_TOTAL = (Q + "DietaryEnergyConsumed", Q + "DietaryCarbohydrates",
                                        Q + "DietaryProtein", Q + "DietaryFatTotal")
SODIUM, SUGAR, FIBER, WATER = Q + "DietarySodium", Q + "DietarySugar", Q + "DietaryFiber", Q + "DietaryWater"
SLEEP, MINDFUL = K + "SleepAnalysis", K + "MindfulSession"
ENV_AUDIO, PHONES_AUDIO = Q + "EnvironmentalAudioExposure", Q + "HeadphoneAudioExposure"
WALK_SPEED, HRV, SLEEP_GOAL = Q + "WalkingSpeed", Q + "HeartRateVariabilitySDNN", "HKDataTypeSleepDurationGoal"
UNMAPPED = [ENV_AUDIO, PHONES_AUDIO, WALK_SPEED, HRV, SLEEP_GOAL]

BP_CORRELATION, FOOD_CORRELATION = "HKCorrelationTypeIdentifierBloodPressure", "HKCorrelationTypeIdentifierFood"
RUN, WALK, STRENGTH, CYCLING = ("HKWorkoutActivityTypeRunning", "HKWorkoutActivityTypeWalking",
                                "HKWorkoutActivityTypeTraditionalStrengthTraining", "HKWorkoutActivityTypeCycling")

SV = "HKCategoryValueSleepAnalysis"
IN_BED, AWAKE, CORE, DEEP, REM = SV + "InBed", SV + "Awake", SV + "AsleepCore", SV + "AsleepDeep", SV + "AsleepREM"
ASLEEP, UNSPECIFIED = SV + "Asleep", SV + "AsleepUnspecified"
STOOD, IDLE = "HKCategoryValueAppleStandHourStood", "HKCategoryValueAppleStandHourIdle"
NOT_APPLICABLE = "HKCategoryValueNotApplicable"

# The blood glucose molar mass HealthKit writes into the unit (HKUnitMolarMassBloodGlucose).
MMOL = "mmol<180.1558800000541>/L"
TIME_ZONE = "America/Los_Angeles"
IOS16 = dt.date(2022, 9, 12)   # before it: no sleep stages, workouts with totals instead of WorkoutStatistics
DAY = 86400


def xml_escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def num(x, digits=6):
    """A value as HealthKit prints it: a few significant digits, never in exponent form."""
    s = "%.*g" % (digits, x)
    if "e" in s:
        s = ("%.10f" % x).rstrip("0").rstrip(".")
    return s


# ---------------------------------------------------------------------------------------------------------
# Time: every date is UTC seconds inside the script and local Pacific time with its offset in the file.

class Pacific:
    """US Pacific time. The 2007 daylight-saving rules are used for every year: the dates only need to look
    right and change offset twice a year, not to match history before 2007."""
    STANDARD, DAYLIGHT = -8 * 3600, -7 * 3600

    def __init__(self):
        self._years = {}

    def _daylight(self, year):
        span = self._years.get(year)
        if span is None:
            def sunday(month, nth):
                first = calendar.timegm((year, month, 1, 0, 0, 0))
                return 1 + (6 - time.gmtime(first).tm_wday) % 7 + 7 * (nth - 1)
            # 02:00 PST on the second Sunday of March to 02:00 PDT on the first Sunday of November.
            span = (calendar.timegm((year, 3, sunday(3, 2), 10, 0, 0)),
                    calendar.timegm((year, 11, sunday(11, 1), 9, 0, 0)))
            self._years[year] = span
        return span

    def offset(self, ts):
        start, end = self._daylight(time.gmtime(ts).tm_year)
        return self.DAYLIGHT if start <= ts < end else self.STANDARD

    def midnight(self, ordinal):
        """UTC seconds of local midnight starting the given proleptic ordinal day."""
        d = dt.date.fromordinal(ordinal)
        naive = calendar.timegm((d.year, d.month, d.day, 0, 0, 0))
        # Midnight is never inside a change (they happen at 02:00), so the offset 8 hours on is the right one.
        return naive - self.offset(naive + 8 * 3600)


class Clock:
    """Formats UTC seconds as "YYYY-MM-DD HH:MM:SS -0800". Pacific offsets are whole hours, so everything but
    minutes and seconds is cached per UTC hour: that keeps formatting cheap for millions of dates."""

    def __init__(self, zone):
        self.zone = zone
        self._hours = {}

    def _hour(self, hour):
        ts = hour * 3600
        off = self.zone.offset(ts)
        t = time.gmtime(ts + off)
        sign = "-" if off < 0 else "+"
        a = abs(off) // 60
        p = ("%04d-%02d-%02d %02d:" % (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour),
             " %s%02d%02d" % (sign, a // 60, a % 60))
        if len(self._hours) > 100000:
            self._hours.clear()
        self._hours[hour] = p
        return p

    def fmt(self, ts):
        hour, rest = divmod(ts, 3600)
        p = self._hours.get(hour) or self._hour(hour)
        return f"{p[0]}{rest // 60:02d}:{rest % 60:02d}{p[1]}"

    def local(self, ts):
        return time.gmtime(ts + self.zone.offset(ts))


def utc_text(ts):
    return time.strftime("%Y-%m-%d %H:%M:%S +0000", time.gmtime(ts))


# ---------------------------------------------------------------------------------------------------------
# Randomness. Only Random.random() is used (through these helpers): its sequence for an integer seed is the
# same in every Python 3, which randint/choice/gauss do not promise.

def uni(r, a, b):
    return a + (b - a) * r.random()


def pick(r, items):
    return items[int(r.random() * len(items))]


def wobble(r, spread):
    """Roughly normal noise with the given standard deviation (sum of three uniforms)."""
    return (r.random() + r.random() + r.random() - 1.5) * 2 * spread


# ---------------------------------------------------------------------------------------------------------
# Sources

def apple_software(day):
    """(version, hardware of watch, hardware of phone, OS install date) in use on a day: a major release each
    September, and the 2025 releases jumped to 26 everywhere."""
    year = day.year - (1 if day.month < 9 else 0)
    ios = year - 2006 if year < 2025 else year - 1999
    watch = ios - 7 if year < 2025 else ios
    minor = ((day.month - 9) % 12) // 2
    tier = 3 if year >= 2024 else 2 if year >= 2021 else 1 if year >= 2018 else 0
    return (f"{ios}.{minor}", f"{watch}.{minor}", ("Watch2,4", "Watch4,2", "Watch6,2", "Watch7,3")[tier],
            ("iPhone9,1", "iPhone11,2", "iPhone14,2", "iPhone17,1")[tier], f"{year}-09-2{minor} 17:12:03 +0000")


class Source:
    """One sourceName with its version and, for Apple devices, the HKDevice description that real exports
    print (with a different object address from day to day)."""

    def __init__(self, name, version=None, device=None):
        self.name, self.version, self.device = name, version, device
        self._attrs = {}

    def attrs(self, ordinal):
        a = self._attrs.get(ordinal)
        if a is None:
            if len(self._attrs) > 4096:
                self._attrs.clear()
            a = self._attrs[ordinal] = self._render(ordinal)
        return a

    def version_on(self, ordinal):
        if self.device is None:
            return self.version
        ios, watch = apple_software(dt.date.fromordinal(ordinal))[:2]
        return watch if self.device == "watch" else ios

    def _render(self, ordinal):
        a = f' sourceName="{xml_escape(self.name)}" sourceVersion="{self.version_on(ordinal)}"'
        if self.device is not None:
            ios, watch, watch_hw, phone_hw, installed = apple_software(dt.date.fromordinal(ordinal))
            address = 0x300000000 + (ordinal * 2654435761 + len(self.name) * 40503) % 0xFFFFFFF
            if self.device == "watch":
                what = (f"name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:{watch_hw},"
                        f" software:{watch}")
            else:
                what = f"name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:{phone_hw}, software:{ios}"
            a += f' device="{xml_escape(f"<<HKDevice: 0x{address:x}>, {what}, creation date:{installed}>")}"'
        return a


WATCH = Source("Sam\u2019s Apple\u00a0Watch", device="watch")
PHONE = Source("Sam\u2019s iPhone", device="phone")
HEALTH = Source("Health", "27.1")
HEALTH_MATE = Source("Health Mate", "7010100")
CONTOUR = Source("Contour Diabetes", "4.11.2")
MFP = Source("MyFitnessPal", "25.44.0")
AUTOSLEEP = Source("AutoSleep", "8.4.1")
STRAVA = Source("Strava", "412.0.1")
SOURCES = [WATCH, PHONE, HEALTH, HEALTH_MATE, CONTOUR, MFP, AUTOSLEEP, STRAVA]

USER_ENTERED = (("HKWasUserEntered", "1"),)
MOTION = {0: (("HKMetadataKeyHeartRateMotionContext", "0"),), 1: (("HKMetadataKeyHeartRateMotionContext", "1"),),
          2: (("HKMetadataKeyHeartRateMotionContext", "2"),)}


def withings_meta(ts, measure):
    """The metadata Health Mate attaches to every Withings measurement (keys with spaces, as in real exports)."""
    return (("Health Mate App Version", "7.1.1"), ("Withings User Identifier", "31415926"),
            ("Modified Date", utc_text(ts + 47)),
            ("Withings Link", f"withings-bd2://timeline/measure?userid=31415926&amp;date={ts}&amp;type={measure}"),
            ("HKWasUserEntered", "0"))


# ---------------------------------------------------------------------------------------------------------
# The plan of a day: when the user slept, woke, ate, trained and measured. Each series generator below reads
# it, so that e.g. steps rise during a run and the blood-pressure Records match their correlation.

class Workout:
    __slots__ = ("activity", "source", "start", "end", "form", "indoor", "kcal_min", "m_min", "steps_min", "hr",
                 "events", "route")


ACTIVITIES = {  # kcal/min, metres/min, steps/min, mean heart rate, share indoors
    RUN: (11.0, 165.0, 162, 152, 0.1), WALK: (4.6, 85.0, 112, 108, 0.05),
    STRENGTH: (6.2, 0.0, 6, 118, 1.0), CYCLING: (8.8, 380.0, 0, 136, 0.0),
}
FOODS = {"Breakfast": ["Oatmeal with blueberries", "Greek yogurt and granola", "Scrambled eggs on toast"],
         "Lunch": ["Turkey sandwich", "Chicken caesar salad", "Lentil soup and bread"],
         "Dinner": ["Salmon with rice", "Pasta primavera", "Beef stir fry"],
         "Snacks": ["Apple", "Almonds", "Protein bar"]}


class Day:
    __slots__ = ("o", "date", "midnight", "next_midnight", "forced", "legacy", "absurd", "onset", "wake",
                 "next_onset", "awake_end", "workouts", "meals", "glucose", "bp", "weigh", "pounds", "height",
                 "temps", "mindful", "water")

    def at(self, hours):
        return self.midnight + int(hours * 3600)

    def workout_at(self, ts):
        for w in self.workouts:
            if w.start <= ts < w.end:
                return w
        return None

    def asleep(self, ts):
        return ts < self.wake or ts >= self.next_onset


class Plan:
    """Everything fixed for one run: the days, the seed, what is forced or absurd on which day."""

    def __init__(self, seed, ordinals, density=1.0, absurd=None, ends=None):
        self.seed, self.ordinals, self.density = seed, ordinals, density
        self.first, self.last = ends if ends is not None else (ordinals[0], ordinals[-1])
        self.absurd = absurd or {}
        self.zone = Pacific()
        self.clock = Clock(self.zone)
        self._days = {}
        self.route = None   # the workout with the WorkoutRoute (the newest outdoor Watch run)

    def rng(self, slot, ordinal):
        return random.Random((self.seed * 1000003 + ordinal) * 97 + slot)

    def midnight(self, ordinal):
        return self.zone.midnight(ordinal)

    def night_onset(self, ordinal):
        """When sleep began on the night ending on the morning of the day: 22:25 the evening before to 00:35."""
        return self.midnight(ordinal) + int(uni(self.rng(1, ordinal), -95, 35) * 60)

    def day(self, o):
        d = self._days.get(o)
        if d is None:
            if len(self._days) > 50000:
                self._days.clear()
            d = self._days[o] = self._plan(o)
        return d

    def _plan(self, o):
        r = self.rng(2, o)
        d = Day()
        d.o, d.date = o, dt.date.fromordinal(o)
        d.midnight, d.next_midnight = self.midnight(o), self.midnight(o + 1)
        d.forced = o in (self.first, self.last)
        d.legacy = d.date < IOS16
        d.absurd = self.absurd.get(o, ())
        weekend = d.date.weekday() >= 5

        def often(p):
            return d.forced or r.random() < p

        d.onset, d.next_onset = self.night_onset(o), self.night_onset(o + 1)
        d.wake = d.at(uni(r, 6.0, 7.5) + (1.0 if weekend else 0.0))
        d.awake_end = min(d.next_onset, d.next_midnight - 60)
        d.workouts = []
        if d.forced or r.random() < 0.5:
            activity = RUN if d.forced else pick(r, (RUN, RUN, WALK, STRENGTH))
            morning = r.random() < 0.4
            start = d.wake + int(uni(r, 30, 60) * 60) if morning else d.at(uni(r, 17.25, 18.75))
            minutes = uni(r, 22, 55) if activity == RUN else uni(r, 25, 60)
            d.workouts.append(self._workout(r, d, activity, WATCH, start, minutes))
        if often(0.08):
            d.workouts.append(self._workout(r, d, CYCLING, STRAVA, d.at(uni(r, 14.0, 15.0)), uni(r, 35, 75)))
        d.workouts.sort(key=lambda w: w.start)

        d.meals = []
        dinner = d.at(uni(r, 18.5, 20.0))
        for w in d.workouts:
            if w.start - 1800 < dinner < w.end + 1200:
                dinner = w.end + int(uni(r, 20, 40) * 60)
        times = [("Breakfast", d.wake + int(uni(r, 20, 50) * 60)), ("Lunch", d.at(uni(r, 12.0, 13.2))),
                 ("Dinner", min(dinner, d.awake_end - 900))]
        if often(0.5):
            times.append(("Snacks", d.at(uni(r, 15.5, 16.4))))
        for meal, ts in sorted(times, key=lambda m: m[1]):
            d.meals.append(self._meal(r, meal, ts))

        d.glucose = []   # (ts, source, unit, value, metadata)
        fasting = d.wake + int(uni(r, 4, 12) * 60)
        mgdl = "90000" if "glucose" in d.absurd else str(int(uni(r, 84, 106)))
        d.glucose.append((fasting, CONTOUR, "mg/dL", mgdl,
                          (("HKBloodGlucoseMealTime", "1"), ("HKWasUserEntered", "0"))))
        lunch = [m for m in d.meals if m[1] == "Lunch"][0][0]
        if often(0.6):
            d.glucose.append((lunch + int(uni(r, 100, 130) * 60), CONTOUR, "mg/dL", str(int(uni(r, 112, 165))),
                              (("HKBloodGlucoseMealTime", "2"), ("HKWasUserEntered", "0"))))
        if often(0.4):
            before_dinner = [m for m in d.meals if m[1] == "Dinner"][0][0] - int(uni(r, 10, 30) * 60)
            d.glucose.append((before_dinner, HEALTH, MMOL, num(uni(r, 4.4, 6.2), 3),
                              (("HKWasUserEntered", "1"), ("HKBloodGlucoseMealTime", pick(r, ("1", "2"))))))
        if often(0.2):
            d.glucose.append((d.awake_end - int(uni(r, 20, 40) * 60), CONTOUR, "mg/dL", str(int(uni(r, 95, 140))),
                              (("HKWasUserEntered", "0"),)))
        d.glucose.sort(key=lambda g: g[0])

        d.bp = []   # (ts, systolic, diastolic, pulse or None)
        if often(0.6):
            d.bp.append((d.wake + int(uni(r, 8, 25) * 60), int(uni(r, 112, 134)), int(uni(r, 70, 86)),
                         int(uni(r, 58, 76)) if often(0.7) else None))
        if often(0.15):
            d.bp.append((d.at(uni(r, 21.0, 21.9)), int(uni(r, 108, 130)), int(uni(r, 68, 84)), None))
        d.bp = [b for b in d.bp if b[0] < d.awake_end]

        base = 72.0 + 3.0 * math.sin(o / 365.0 * 2 * math.pi) + 1.5 * math.sin(o / 53.0 * 2 * math.pi)
        d.weigh = None   # (ts, kg, body fat fraction)
        if often(0.7) or "body_mass" in d.absurd:
            d.weigh = (d.wake + int(uni(r, 3, 7) * 60), base + wobble(r, 0.3), 0.22 + wobble(r, 0.008))
        d.pounds = (d.at(uni(r, 20.0, 21.0)), (base + wobble(r, 0.4)) * 2.20462262) if often(0.1) else None
        d.height = d.forced or o % 180 == 0
        d.temps = []
        if often(0.15):
            d.temps.append((d.at(uni(r, 19.0, 21.0)), HEALTH, "degC", num(uni(r, 36.4, 37.2), 3), USER_ENTERED))
        if often(0.1):
            ts = d.wake + int(uni(r, 15, 40) * 60)
            d.temps.append((ts, HEALTH_MATE, "degF", num(uni(r, 97.5, 99.1), 3), withings_meta(ts, 71)))
        d.temps.sort(key=lambda t: t[0])
        d.mindful = []
        if often(0.4):
            start = d.at(uni(r, 13.3, 14.0)) if r.random() < 0.5 else d.awake_end - int(uni(r, 25, 40) * 60)
            d.mindful.append((start, start + int(uni(r, 1, 10) * 60)))
        d.water = [d.at(h + uni(r, 0, 1.5)) for h in (9, 11, 14, 16, 19) if often(0.75)]
        return d

    def _workout(self, r, d, activity, source, start, minutes):
        kcal, metres, steps, hr, indoor = ACTIVITIES[activity]
        w = Workout()
        w.activity, w.source, w.start = activity, source, start
        w.end = start + int(minutes * 60)
        w.form = "totals" if d.legacy or source is STRAVA else "statistics"
        # The run every first and last day has is outdoors, so every export has a route.
        w.indoor = r.random() < indoor and not (d.forced and activity == RUN)
        w.kcal_min, w.m_min = kcal * uni(r, 0.9, 1.1), metres * uni(r, 0.9, 1.1)
        w.steps_min, w.hr = steps * uni(r, 0.95, 1.05), hr + wobble(r, 5)
        w.route = False
        w.events = []   # (type, ts, duration in seconds or None)
        if w.m_min > 0 and source is WATCH:
            split = int(1000 / w.m_min * 60)   # one segment per kilometre
            for k in range(1, 1 + min(12, (w.end - w.start) // split)):
                w.events.append(("HKWorkoutEventTypeSegment", start + (k - 1) * split, split))
        if r.random() < 0.3 or d.forced:
            pause = start + int((w.end - start) * uni(r, 0.4, 0.6))
            w.events += [("HKWorkoutEventTypePause", pause, None),
                         ("HKWorkoutEventTypeResume", pause + int(uni(r, 40, 150)), None)]
        w.events.sort(key=lambda e: e[1])
        return w

    def _meal(self, r, meal, ts):
        kcal = uni(r, 120, 260) if meal == "Snacks" else uni(r, 350, 850)
        carbs = kcal * uni(r, 0.4, 0.55) / 4
        nutrients = {ENERGY_IN: (kcal, "kcal"), CARBS: (carbs, "g"), SUGAR: (carbs * uni(r, 0.15, 0.45), "g")}
        if meal != "Snacks":
            nutrients.update({PROTEIN: (kcal * uni(r, 0.15, 0.3) / 4, "g"),
                              FAT_TOTAL: (kcal * uni(r, 0.25, 0.35) / 9, "g"),
                              SODIUM: (uni(r, 300, 1300), "mg"), FIBER: (uni(r, 2, 12), "g")})
        return (ts, meal, pick(r, FOODS[meal]), nutrients)


# ---------------------------------------------------------------------------------------------------------
# Series generators: each gives one day's rows of one type, in time order:
# (start, end, source, unit, value, metadata pairs or None, extra) with extra None, ABSURD or HRV beats.

ABSURD = object()


def windows(r, start, end, short, long, gap, density):
    """Back-to-back sampling windows of short..long seconds with pauses of up to gap/density seconds."""
    t = start + int(r.random() * gap)
    while t < end:
        e = min(t + int(uni(r, short, long)), end)
        yield t, e
        t = e + int(r.random() * gap / density) + 1


def steps_rows(plan, d):
    r = plan.rng(10, d.o)
    rows = []
    for src, share in ((PHONE, 1.0), (WATCH, 0.92)):
        for t, e in windows(r, d.wake, d.awake_end, 120, 600, 480, plan.density):
            w = d.workout_at(t)
            per_min = w.steps_min if w else 2 + 40 * r.random() ** 3
            n = int(per_min * (e - t) / 60 * share)
            if n > 0:
                rows.append((t, e, src, "count", str(n), None, None))
    rows.sort(key=lambda row: row[0])
    return rows


def distance_rows(plan, d):
    """The distance of each step window: km from the iPhone, mi from the Watch."""
    rows = []
    for t, e, src, _, n, _, _ in steps_rows(plan, d):
        w = d.workout_at(t)
        metres = int(n) * (1.05 if w is not None and w.activity == RUN else 0.72)
        if src is PHONE:
            rows.append((t, e, src, "km", num(metres / 1000, 5), None, None))
        else:
            rows.append((t, e, src, "mi", num(metres / 1609.344, 5), None, None))
    return rows


def active_rows(plan, d, watch_only=False):
    r = plan.rng(11, d.o)
    rows = []
    for t, e in windows(r, d.wake, d.awake_end, 300, 900, 300, plan.density):
        w = d.workout_at(t)
        per_min = w.kcal_min if w else 0.2 + 1.5 * r.random() ** 2
        rows.append((t, e, WATCH, "kcal", num(per_min * (e - t) / 60, 4), None, None))
    if not watch_only:
        total = math.fsum(float(row[4]) for row in rows)
        rows.append((d.wake, d.awake_end, HEALTH_MATE, "Cal", num(total * uni(r, 0.8, 1.0), 5),
                     withings_meta(d.awake_end, 16), None))
    return rows


def basal_rows(plan, d):
    r = plan.rng(12, d.o)
    step = min(6 * 3600, int(1800 / plan.density) // 1800 * 1800)
    rows = [(t, min(t + step, d.next_midnight), WATCH, "kcal", num(1.15 * min(step, d.next_midnight - t) / 60
                                                                   * uni(r, 0.92, 1.08), 4), None, None)
            for t in range(d.midnight, d.next_midnight, step)]
    rows.append((d.midnight, d.next_midnight - 1, HEALTH_MATE, "Cal", num(uni(r, 1610, 1690), 5),
                 withings_meta(d.next_midnight - 1, 16), None))
    rows.sort(key=lambda row: row[0])
    return rows


def flights_rows(plan, d):
    r = plan.rng(13, d.o)
    starts = sorted(int(uni(r, d.wake, d.awake_end)) for _ in range(int(uni(r, 2, 10))))
    return [(t, t + int(uni(r, 10, 60)), PHONE, "count", str(int(uni(r, 1, 4))), None, None) for t in starts]


def stand_hour_rows(plan, d):
    r = plan.rng(14, d.o)
    rows = []
    # Local hours start on UTC hours here (whole-hour offsets), so the hours are multiples of 3600.
    for t in range((d.wake // 3600 + 1) * 3600, d.awake_end - 3600 + 1, 3600):
        rows.append((t, t + 3600, WATCH, None, STOOD if r.random() < 0.8 else IDLE, None, None))
    return rows


def stand_time_rows(plan, d):
    r = plan.rng(15, d.o)
    rows = []
    for t, _, _, _, value, _, _ in stand_hour_rows(plan, d):
        if value == STOOD:
            for _ in range(int(uni(r, 1, 4))):
                s = t + int(uni(r, 0, 3300))
                minutes = int(uni(r, 1, 5))
                rows.append((s, s + minutes * 60, WATCH, "min", str(minutes), None, None))
    rows.sort(key=lambda row: row[0])
    return rows


def exercise_rows(plan, d):
    r = plan.rng(16, d.o)
    spans = [(w.start, (w.end - w.start) // 60) for w in d.workouts if w.source is WATCH]
    if r.random() < 0.3:
        spans.append((int(uni(r, d.wake + 3600, d.awake_end - 3600)), int(uni(r, 5, 15))))
    # The Watch writes one-minute samples; thinned files group them (up to 30 minutes a sample).
    chunk = min(30, max(1, round(1 / plan.density)))
    rows = []
    for start, minutes in sorted(spans):
        for k in range(0, minutes, chunk):
            n = min(chunk, minutes - k)
            rows.append((start + 60 * k, start + 60 * (k + n), WATCH, "min", str(n), None, None))
    return rows


def heart_rows(plan, d):
    r = plan.rng(17, d.o)
    rows = []
    absurd = "heart_rate" in d.absurd
    t = d.midnight + int(r.random() * 600)
    while t < d.next_midnight:
        w = d.workout_at(t)
        if w is not None and w.source is WATCH:
            bpm, meta, step = w.hr + wobble(r, 7), None, uni(r, 50, 70) / plan.density
        elif d.asleep(t):
            bpm, meta, step = uni(r, 49, 60), MOTION[0], uni(r, 600, 1200) / plan.density
        else:
            active = r.random() < 0.15
            bpm, meta, step = (uni(r, 85, 115) if active else uni(r, 60, 84)), MOTION[2 if active else 1], \
                uni(r, 240, 600) / plan.density
        if absurd and w is None and not d.asleep(t):
            rows.append((t, t, WATCH, "count/min", "0", meta, ABSURD))
            absurd = False
        else:
            rows.append((t, t, WATCH, "count/min", str(int(round(bpm))), meta, None))
        t += int(step)
    for ts, _, _, pulse in d.bp:
        if pulse is not None:
            rows.append((ts, ts, HEALTH_MATE, "count/min", str(pulse), withings_meta(ts, 11), None))
    rows.sort(key=lambda row: row[0])
    return rows


def resting_rows(plan, d):
    r = plan.rng(18, d.o)
    start = d.midnight + int(uni(r, 60, 900))
    return [(start, d.awake_end, WATCH, "count/min", str(int(uni(r, 51, 62))), None, None)]


def spo2_rows(plan, d):
    r = plan.rng(19, d.o)
    starts = sorted(int(uni(r, d.onset + 1800, d.wake - 600)) for _ in range(int(uni(r, 3, 8))))
    if r.random() < 0.5:
        starts.append(int(uni(r, d.wake + 3600, d.awake_end - 600)))
    return [(t, t, WATCH, "%", num(uni(r, 0.93, 1.0), 2), None, None) for t in starts]


def temp_rows(plan, d):
    return [(ts, ts, src, unit, value, meta, None) for ts, src, unit, value, meta in d.temps]


def glucose_rows(plan, d):
    return [(ts, ts, src, unit, value, meta, ABSURD if value == "90000" else None)
            for ts, src, unit, value, meta in d.glucose]


def bp_rows(kind):
    index = 1 if kind == SYSTOLIC else 2

    def rows(plan, d):
        return [(b[0], b[0], HEALTH_MATE, "mmHg", str(b[index]), withings_meta(b[0], 10 if index == 1 else 9), None)
                for b in d.bp]
    return rows


def mass_rows(plan, d):
    rows = []
    if d.weigh:
        ts, kg, _ = d.weigh
        if "body_mass" in d.absurd:
            rows.append((ts, ts, HEALTH_MATE, "kg", "-5", withings_meta(ts, 1), ABSURD))
        else:
            rows.append((ts, ts, HEALTH_MATE, "kg", num(kg, 5), withings_meta(ts, 1), None))
    if d.pounds:
        rows.append((d.pounds[0], d.pounds[0], HEALTH, "lb", num(d.pounds[1], 4), USER_ENTERED, None))
    return rows


HEIGHT_M = 1.71


def bmi_rows(plan, d):
    if not d.weigh:
        return []
    ts, kg, _ = d.weigh
    return [(ts, ts, HEALTH_MATE, "count", num(kg / HEIGHT_M ** 2, 6), withings_meta(ts, 1), None)]


def fat_rows(plan, d):
    if not d.weigh:
        return []
    ts, _, fat = d.weigh
    return [(ts, ts, HEALTH_MATE, "%", num(fat, 3), withings_meta(ts, 6), None)]


def lean_rows(plan, d):
    if not d.weigh:
        return []
    ts, kg, fat = d.weigh
    return [(ts, ts, HEALTH_MATE, "kg", num(kg * (1 - fat), 5), withings_meta(ts, 5), None)]


def height_rows(plan, d):
    if not d.height:
        return []
    ts = d.at(10.5)
    return [(ts, ts, HEALTH, "cm", num(HEIGHT_M * 100, 4), USER_ENTERED, None),
            (ts + 600, ts + 600, HEALTH_MATE, "in", num(HEIGHT_M / 0.0254, 4), withings_meta(ts + 600, 4), None)]


def meal_row(ts, meal, nutrients, kind):
    value, unit = nutrients[kind]
    return (ts, ts, MFP, unit, num(value, 5), (("meal", meal),), None)


def nutrient_rows(kind):
    def rows(plan, d):
        return [meal_row(ts, meal, nutrients, kind) for ts, meal, _, nutrients in d.meals if kind in nutrients]
    return rows


def water_rows(plan, d):
    r = plan.rng(20, d.o)
    return [(t, t, HEALTH, "mL", str(int(pick(r, (250, 330, 500)))), USER_ENTERED, None) for t in d.water]


def sleep_rows(plan, d):
    r = plan.rng(21, d.o)
    rows = [(d.onset - int(uni(r, 300, 1200)), d.wake + int(uni(r, 60, 600)), PHONE, None, IN_BED, None, None)]
    t, cycle = d.onset + int(uni(r, 300, 1200)), 0
    stages = []
    while t < d.wake - 600:   # ~90-minute cycles: core, deep (less as the night goes on), core, REM (more)
        for stage, lo, hi in ((CORE, 25, 45), (DEEP, max(5, 30 - 6 * cycle), max(10, 45 - 8 * cycle)),
                              (CORE, 10, 20), (REM, 10 + 5 * cycle, 20 + 6 * cycle)):
            e = min(t + int(uni(r, lo, hi) * 60), d.wake)
            if e > t:
                stages.append((t, e, stage))
            t = e
        if r.random() < 0.4 and t < d.wake:
            e = min(t + int(uni(r, 1, 6) * 60), d.wake)
            stages.append((t, e, AWAKE))
            t = e
        cycle += 1
    if d.legacy:   # before iOS 16 the Watch wrote one Asleep span between awakenings
        merged = []
        for s, e, stage in stages:
            stage = AWAKE if stage == AWAKE else ASLEEP
            if merged and merged[-1][2] == stage and merged[-1][1] == s:
                merged[-1] = (merged[-1][0], e, stage)
            else:
                merged.append((s, e, stage))
        stages = merged
    rows += [(s, e, WATCH, None, stage, None, None) for s, e, stage in stages]
    s, e = d.onset + int(uni(r, 120, 600)), d.wake - int(uni(r, 60, 300))
    if d.forced:   # both spellings of "asleep, stage unknown" in every export
        middle = (s + e) // 2
        rows += [(s, middle, AUTOSLEEP, None, ASLEEP, None, None),
                 (middle, e, AUTOSLEEP, None, UNSPECIFIED, None, None)]
    else:
        rows.append((s, e, AUTOSLEEP, None, ASLEEP if d.o % 3 == 0 else UNSPECIFIED, None, None))
    rows.sort(key=lambda row: row[0])
    return rows


def mindful_rows(plan, d):
    return [(s, e, WATCH, None, NOT_APPLICABLE, None, None) for s, e in d.mindful]


def env_audio_rows(plan, d):
    r = plan.rng(22, d.o)
    return [(t, e, WATCH, "dBASPL", num(uni(r, 52, 82), 6), None, None)
            for t, e in windows(r, d.wake, d.awake_end, 1200, 1800, 1200, plan.density)]


def phones_audio_rows(plan, d):
    r = plan.rng(23, d.o)
    sessions = int(uni(r, 1 if d.forced else 0, 4))
    starts = sorted(int(uni(r, d.wake + 1800, d.awake_end - 3600)) for _ in range(sessions))
    return [(t, t + int(uni(r, 900, 3600)), PHONE, "dBASPL", num(uni(r, 60, 78), 6),
             (("HKMetadataKeyAudioExposureLevel", num(uni(r, 0.3, 0.7), 3)),), None) for t in starts]


def walk_speed_rows(plan, d):
    r = plan.rng(24, d.o)
    starts = sorted(int(uni(r, d.wake, d.awake_end - 60)) for _ in range(int(uni(r, 2, 9 * plan.density + 2))))
    return [(t, t + int(uni(r, 15, 40)), PHONE, "km/hr", num(uni(r, 4.1, 5.6), 5), None, None) for t in starts]


def hrv_rows(plan, d):
    r = plan.rng(25, d.o)
    starts = sorted(int(uni(r, d.onset + 1800, d.wake - 900)) for _ in range(2))
    if r.random() < 0.6:
        starts.append(int(uni(r, d.wake + 3600, d.awake_end - 3600)))
    rows = []
    for t in starts:
        beats, at = [], float(t)
        for _ in range(max(3, int(uni(r, 45, 70) * plan.density))):
            bpm = int(uni(r, 52, 72))
            beats.append((bpm, at))
            at += 60.0 / bpm
        rows.append((t, int(at) + 1, WATCH, "ms", num(uni(r, 24, 72), 6), None, beats))
    return rows


def sleep_goal_rows(plan, d):
    if d.o == plan.first or d.o % 90 == 0:
        ts = d.at(21.0)
        return [(ts, ts, PHONE, "hr", "8", None, None)]
    return []


# The Records section, in the order of the types in the file (Apple groups by type; this order is close to
# HealthKit's own numbering of the types).
RECORD_SECTIONS = [
    (BMI, bmi_rows), (FAT, fat_rows), (HEIGHT, height_rows), (MASS, mass_rows), (HEART, heart_rows),
    (STEPS, steps_rows), (DISTANCE, distance_rows), (BASAL, basal_rows), (ACTIVE, active_rows),
    (FLIGHTS, flights_rows), (SPO2, spo2_rows), (TEMP, temp_rows), (SYSTOLIC, bp_rows(SYSTOLIC)),
    (DIASTOLIC, bp_rows(DIASTOLIC)), (GLUCOSE, glucose_rows), (LEAN, lean_rows),
    (FAT_TOTAL, nutrient_rows(FAT_TOTAL)), (SODIUM, nutrient_rows(SODIUM)), (CARBS, nutrient_rows(CARBS)),
    (FIBER, nutrient_rows(FIBER)), (SUGAR, nutrient_rows(SUGAR)), (ENERGY_IN, nutrient_rows(ENERGY_IN)),
    (PROTEIN, nutrient_rows(PROTEIN)), (WATER, water_rows), (EXERCISE, exercise_rows), (RESTING, resting_rows),
    (WALK_SPEED, walk_speed_rows), (ENV_AUDIO, env_audio_rows), (PHONES_AUDIO, phones_audio_rows),
    (HRV, hrv_rows), (STAND_TIME, stand_time_rows), (SLEEP_GOAL, sleep_goal_rows), (SLEEP, sleep_rows),
    (STAND_HOUR, stand_hour_rows), (MINDFUL, mindful_rows),
]
FOOD_ORDER = [ENERGY_IN, CARBS, PROTEIN, FAT_TOTAL, SODIUM, SUGAR, FIBER]


# ---------------------------------------------------------------------------------------------------------
# The DTD: the v14 one (iOS 17+), or with dtd malformed the broken v12 one of iOS 16.

REQ, IMP = "#REQUIRED", "#IMPLIED"
SOURCE_ATTRS = [("sourceName", REQ), ("sourceVersion", IMP), ("device", IMP), ("creationDate", IMP),
                ("startDate", REQ), ("endDate", REQ)]
EYE_ATTRS = [(a + u, IMP) for a in ("sphere", "cylinder", "axis", "add", "vertex", "prismAmount", "prismAngle",
                                    "farPD", "nearPD", "baseCurve", "diameter") for u in ("", "Unit")]
ME_ATTRS = ["DateOfBirth", "BiologicalSex", "BloodType", "FitzpatrickSkinType", "CardioFitnessMedicationsUse"]


def dtd_declarations(ios16):
    """(element, content model, attributes) in the order of a real export's DTD."""
    me = ME_ATTRS[:4] if ios16 else ME_ATTRS
    stats = ("type", "startDate", "endDate", "average", "minimum", "maximum", "sum") + (() if ios16 else ("unit",))
    return [
        ("HealthData", "(ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram"
                       "|VisionPrescription)*)", [("locale", REQ)]),
        ("ExportDate", "EMPTY", [("value", REQ)]),
        ("Me", "EMPTY", [("HKCharacteristicTypeIdentifier" + a, REQ) for a in me]),
        ("Record", "((MetadataEntry|HeartRateVariabilityMetadataList)*)",
         [("type", REQ), ("unit", IMP), ("value", IMP)] + SOURCE_ATTRS),
        "<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in "
        "this document. -->",
        ("Correlation", "((MetadataEntry|Record)*)", [("type", REQ)] + SOURCE_ATTRS),
        ("Workout", "((MetadataEntry|WorkoutEvent|WorkoutRoute)*)" if ios16 else
         "((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)",
         [("workoutActivityType", REQ)] + [(a, IMP) for a in ("duration", "durationUnit", "totalDistance",
          "totalDistanceUnit", "totalEnergyBurned", "totalEnergyBurnedUnit")] + SOURCE_ATTRS),
        ("WorkoutActivity", "((MetadataEntry)*)", [("uuid", REQ), ("startDate", REQ), ("endDate", IMP),
                                                   ("duration", IMP), ("durationUnit", IMP)]),
        ("WorkoutEvent", "EMPTY" if ios16 else "((MetadataEntry)*)",
         [("type", REQ), ("date", REQ), ("duration", IMP), ("durationUnit", IMP)]),
        ("WorkoutStatistics", "EMPTY", [(a, REQ if a in ("type", "startDate", "endDate") else IMP) for a in stats]),
        ("WorkoutRoute", "((MetadataEntry|FileReference)*)", SOURCE_ATTRS),
        ("FileReference", "EMPTY", [("path", REQ)]),
        ("ActivitySummary", "EMPTY", [(a, IMP) for a in (
            "dateComponents", "activeEnergyBurned", "activeEnergyBurnedGoal", "activeEnergyBurnedUnit",
            "appleMoveTime", "appleMoveTimeGoal", "appleExerciseTime", "appleExerciseTimeGoal", "appleStandHours",
            "appleStandHoursGoal")]),
        ("MetadataEntry", "EMPTY", [("key", REQ), ("value", REQ)]),
        "<!-- Note: Heart Rate Variability records captured by Apple Watch may include an associated list of "
        "instantaneous beats-per-minute readings. -->",
        ("HeartRateVariabilityMetadataList", "(InstantaneousBeatsPerMinute*)", None),
        ("InstantaneousBeatsPerMinute", "EMPTY", [("bpm", REQ), ("time", REQ)]),
        ("ClinicalRecord", "EMPTY", [(a, REQ) for a in ("type", "identifier", "sourceName", "sourceURL",
                                                        "fhirVersion", "receivedDate", "resourceFilePath")]),
        ("Audiogram", "((MetadataEntry|SensitivityPoint)*)", [("type", REQ)] + SOURCE_ATTRS),
        ("SensitivityPoint", "EMPTY", [("frequencyValue", REQ), ("frequencyUnit", REQ)] + [
            (side + part, IMP) for side in ("leftEar", "rightEar") for part in ("Value", "Unit", "Masked")]),
        ("VisionPrescription", "((RightEye|LeftEye|Attachment|MetadataEntry)*)",
         [("type", REQ), ("dateIssued", REQ), ("expirationDate", REQ if ios16 else IMP), ("brand", IMP)]),
        ("RightEye", "EMPTY", EYE_ATTRS),
        ("LeftEye", "EMPTY", EYE_ATTRS),
        ("Attachment", "EMPTY", [("identifier", IMP)]),
    ]


def render_dtd(ios16=False):
    lines = ["<!DOCTYPE HealthData [", f"<!-- HealthKit Export Version: {12 if ios16 else 14} -->"]
    for decl in dtd_declarations(ios16):
        if isinstance(decl, str):
            lines.append(decl)
            continue
        name, content, attrs = decl
        lines.append(f"<!ELEMENT {name} {content}>")
        if attrs:
            width = max(len(a) for a, _ in attrs)
            lines.append(f"<!ATTLIST {name}")
            lines += [f"  {a.ljust(width)} CDATA {use}" for a, use in attrs]
            # iOS 16's defect: this one declaration is never closed.
            if not (ios16 and name == "VisionPrescription"):
                lines.append(">")
    if ios16:
        # ...and leftovers of a removed declaration follow the last one, with MetadataEntry declared again.
        lines += ["  device           CDATA #IMPLIED", "<!ELEMENT MetadataEntry EMPTY>", "<!ATTLIST MetadataEntry",
                  "  key              CDATA #IMPLIED", "  value            CDATA #IMPLIED", ">", ">"]
    lines.append("]>")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------------
# Writing: a sink that counts bytes (and can stop at a byte), a tally of what went out, the writer.

class Truncated(Exception):
    pass


class Sink:
    """Buffers UTF-8 into ~1 MB writes (zip entries compress per write call), counts bytes and lines, and
    stops dead at cut_at bytes when truncating. raw None counts without writing (the dry runs)."""

    def __init__(self, raw, cut_at=None, progress=False):
        self.raw, self.cut_at, self.progress = raw, cut_at, progress
        self.offset, self.lines = 0, 0
        self._buf, self._size = [], 0
        self._started = self._shown = time.monotonic()
        self.cut = False

    def put(self, text):
        data = text.encode("utf-8")
        if self.cut_at is not None and self.offset + len(data) > self.cut_at:
            data = data[:self.cut_at - self.offset]
            self.offset += len(data)
            self._keep(data)
            self.flush()
            self.cut = True
            raise Truncated()
        self.offset += len(data)
        self.lines += text.count("\n")
        self._keep(data)

    def _keep(self, data):
        if self.raw is None:
            return
        self._buf.append(data)
        self._size += len(data)
        if self._size >= 1 << 20:
            self.flush()

    def flush(self):
        if self._buf:
            self.raw.write(b"".join(self._buf))
            self._buf, self._size = [], 0
        if self.progress:
            now = time.monotonic()
            if now - self._shown >= 3:
                self._shown = now
                mb = self.offset / 1e6
                print(f"make-health-export: {mb:,.0f} MB of XML written ({mb / (now - self._started):.1f} MB/s)",
                      file=sys.stderr, flush=True)


class Tally:
    def __init__(self):
        self.elements = Counter()
        self.by_type, self.by_type_unit, self.by_source = Counter(), Counter(), Counter()
        self.nested_by_type, self.correlations, self.workouts, self.forms = Counter(), Counter(), Counter(), Counter()
        self.meta_keys, self.absurd = Counter(), Counter()
        self.absurd_values = []
        self.earliest = self.latest = None
        self.first_summary = self.last_summary = None

    def span(self, start, end):
        if self.earliest is None or start < self.earliest:
            self.earliest = start
        if self.latest is None or end > self.latest:
            self.latest = end

    def snapshot(self):
        return {"records_before": sum(self.by_type.values()), "records_before_by_type": dict(self.by_type),
                "elements_before": dict(self.elements)}


UNIT_ATTRS = {None: ""}


def unit_attr_of(unit):
    UNIT_ATTRS[unit] = f' unit="{xml_escape(unit)}"'
    return UNIT_ATTRS[unit]


class Writer:
    def __init__(self, plan, sink, tally, malformed):
        self.plan, self.sink, self.tally = plan, sink, tally
        self.fmt = plan.clock.fmt
        self.malformed = set(malformed)
        self.notes = {}          # malformation -> what was done where
        self.item = None         # (element, type) being written, for the truncation note
        self.break_at = None     # byte offset after which broken-middle writes its fragment
        self.cc_every = 0        # control-chars: every how many top-level Records
        self.top_records = 0

    # --- plumbing -------------------------------------------------------------------------------------
    def put(self, text, element, kind):
        self.item = (element, kind)
        self.maybe_break()
        self.sink.put(text)

    def mark(self, kind, detail):
        """Notes where a malformation first is (the item about to be written) and counts them all."""
        note = self.notes.get(kind)
        if note is None:
            note = self.notes[kind] = dict(detail, offset=self.sink.offset, line=self.sink.lines + 1,
                                           **self.tally.snapshot())
            note["count"] = 0
        note["count"] += 1

    def maybe_break(self):
        """broken-middle: once past break_at, between two items, an element that never ends."""
        if self.break_at is not None and self.sink.offset >= self.break_at:
            fragment = ' <Record type="HKQuantity\n'
            self.break_at = None
            self.mark("broken-middle", {"fragment": fragment.strip()})
            self.sink.put(fragment)

    # --- elements -------------------------------------------------------------------------------------
    def record_text(self, rtype, row, o, indent):
        start, end, src, unit, value, meta, extra = row
        fmt = self.fmt
        sd = fmt(start)
        ed = sd if end == start else fmt(end)
        # Records are saved a little after they end (the Watch syncs in batches).
        created = fmt(end + 5 + (start * 2654435761 >> 9) % 600)
        unit_attr = UNIT_ATTRS.get(unit)
        if unit_attr is None:
            unit_attr = unit_attr_of(unit)
        text = (f'{indent}<Record type="{rtype}"{src.attrs(o)}{unit_attr} creationDate="{created}"'
                f' startDate="{sd}" endDate="{ed}" value="{value}"')
        if not meta and (extra is None or extra is ABSURD):
            return text + "/>\n"
        parts = [text, ">\n"]
        if meta:
            parts += [f'{indent} <MetadataEntry key="{k}" value="{v}"/>\n' for k, v in meta]
        if extra is not None and extra is not ABSURD:
            parts.append(f"{indent} <HeartRateVariabilityMetadataList>\n")
            parts += [f'{indent}  <InstantaneousBeatsPerMinute bpm="{bpm}" time="{self.clock12(at)}"/>\n'
                      for bpm, at in extra]
            parts.append(f"{indent} </HeartRateVariabilityMetadataList>\n")
        parts.append(f"{indent}</Record>\n")
        return "".join(parts)

    def clock12(self, at):
        """The time of an instantaneous beat as the export prints it: "9:27:16.52 PM"."""
        s = self.fmt(int(at))
        hour = int(s[11:13])
        return f"{hour % 12 or 12}{s[13:19]}.{int((at % 1) * 100):02d} {'AM' if hour < 12 else 'PM'}"

    def count_record(self, rtype, row, tally, nested):
        start, end, src, unit, value, meta, extra = row
        tally.elements["Record"] += 1
        if meta:
            tally.elements["MetadataEntry"] += len(meta)
            for k, _ in meta:
                tally.meta_keys[k] += 1
        if extra is not None and extra is not ABSURD:
            tally.elements["HeartRateVariabilityMetadataList"] += 1
            tally.elements["InstantaneousBeatsPerMinute"] += len(extra)
        if nested:
            tally.nested_by_type[rtype] += 1
            return
        tally.by_type[rtype] += 1
        tally.by_type_unit[(rtype, unit or "")] += 1
        tally.by_source[src.name] += 1
        tally.span(start, end)
        if extra is ABSURD:
            tally.absurd[rtype] += 1
            tally.absurd_values.append({"type": rtype, "unit": unit, "value": value, "startDate": self.fmt(start)})

    def record(self, rtype, row, o):
        self.maybe_break()   # first, so that the notes below point at this Record
        text = self.record_text(rtype, row, o, " ")
        if "attribute-spaces" in self.malformed and rtype == FAT and row[2] is HEALTH_MATE:
            text, row = self.spaced(rtype, row, o), row[:5] + (None, row[6])
            self.mark("attribute-spaces", {"type": rtype})
        if self.cc_every and self.top_records % self.cc_every == self.cc_every // 2:
            text = text.replace('" sourceVersion="', '\x0b" sourceVersion="', 1)
            self.mark("control-chars", {"type": rtype, "attribute": "sourceName"})
            self.notes["control-chars"].setdefault("types", Counter())[rtype] += 1
        self.put(text, "Record", rtype)
        self.top_records += 1
        self.count_record(rtype, row, self.tally, False)

    def spaced(self, rtype, row, o):
        """openradar 21431305 (2015): metadata flattened into attributes, names with spaces and all."""
        start, end, src, unit, value, meta, _ = row
        sd = self.fmt(start)
        attrs = "".join(f' {k}="{v}"' for k, v in meta)
        return (f' <Record type="{rtype}"{src.attrs(o)} unit="{unit}" creationDate="{self.fmt(end + 40)}"'
                f' startDate="{sd}" endDate="{sd}"{attrs} value="{value}"/>\n')

    def correlation(self, ctype, src, ts, meta, members, o):
        """members: [(type, row)]; the same rows are written at top level in their type's section."""
        sd = self.fmt(ts)
        parts = [f' <Correlation type="{ctype}"{src.attrs(o)} creationDate="{self.fmt(ts + 52)}" startDate="{sd}"'
                 f' endDate="{sd}">\n']
        parts += [f'  <MetadataEntry key="{k}" value="{v}"/>\n' for k, v in meta]
        parts += [self.record_text(rtype, row, o, "  ") for rtype, row in members]
        parts.append(" </Correlation>\n")
        self.put("".join(parts), "Correlation", ctype)
        t = self.tally
        t.elements["Correlation"] += 1
        t.correlations[ctype] += 1
        t.elements["MetadataEntry"] += len(meta)
        for k, _ in meta:
            t.meta_keys[k] += 1
        for rtype, row in members:
            self.count_record(rtype, row, t, True)
        t.span(ts, ts)

    def workout(self, w, o):
        fmt, t = self.fmt, self.tally
        minutes = (w.end - w.start) / 60
        kcal, km = w.kcal_min * minutes, w.m_min * minutes / 1000
        head = (f' <Workout workoutActivityType="{w.activity}" duration="{minutes!r}" durationUnit="min"')
        if w.form == "totals":
            if km > 0:
                head += f' totalDistance="{km if w.source is STRAVA else km / 1.609344!r}" totalDistanceUnit=' \
                        f'"{"km" if w.source is STRAVA else "mi"}"'
            head += f' totalEnergyBurned="{kcal!r}" totalEnergyBurnedUnit="kcal"'
        sd, ed = fmt(w.start), fmt(w.end)
        parts = [head, f'{w.source.attrs(o)} creationDate="{fmt(w.end + 9)}" startDate="{sd}" endDate="{ed}">\n']
        meta = [("HKIndoorWorkout", "1" if w.indoor else "0"), ("HKTimeZone", TIME_ZONE)]
        if w.source is WATCH:
            meta += [("HKAverageMETs", num(w.kcal_min * 60 / 72, 5) + " kcal/hr\u00b7kg")]
            if not w.indoor:
                meta += [("HKWeatherTemperature", f"{50 + w.start % 25} degF"),
                         ("HKWeatherHumidity", f"{55 + w.start % 40} %")]
                if km > 0:
                    meta.append(("HKElevationAscended", f"{int(km * 900)} cm"))
        parts += [f'  <MetadataEntry key="{k}" value="{v}"/>\n' for k, v in meta]
        for etype, at, seconds in w.events:
            extra = "" if seconds is None else f' duration="{seconds / 60!r}" durationUnit="min"'
            parts.append(f'  <WorkoutEvent type="{etype}" date="{fmt(at)}"{extra}/>\n')
        stats = []
        if w.form == "statistics":
            span = f'startDate="{sd}" endDate="{ed}"'
            stats = [f'  <WorkoutStatistics type="{ACTIVE}" {span} sum="{num(kcal, 6)}" unit="kcal"/>\n',
                     f'  <WorkoutStatistics type="{BASAL}" {span} sum="{num(1.15 * minutes, 6)}" unit="kcal"/>\n']
            if km > 0:
                stats.append(f'  <WorkoutStatistics type="{DISTANCE}" {span} sum="{num(km, 6)}" unit="km"/>\n')
            stats.append(f'  <WorkoutStatistics type="{HEART}" {span} average="{num(w.hr, 5)}" minimum='
                         f'"{int(w.hr - 35)}" maximum="{int(w.hr + 22)}" unit="count/min"/>\n')
        parts += stats
        if w.route:
            parts += [f'  <WorkoutRoute{w.source.attrs(o)} creationDate="{fmt(w.end + 20)}" startDate="{sd}"'
                      f' endDate="{ed}">\n', '   <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>\n',
                      f'   <FileReference path="/workout-routes/{route_name(self.plan, w)}"/>\n',
                      "  </WorkoutRoute>\n"]
        parts.append(" </Workout>\n")
        self.put("".join(parts), "Workout", w.activity)
        t.elements["Workout"] += 1
        t.workouts[w.activity] += 1
        t.forms[w.form] += 1
        t.elements["MetadataEntry"] += len(meta) + (1 if w.route else 0)
        for k, _ in meta:
            t.meta_keys[k] += 1
        t.elements["WorkoutEvent"] += len(w.events)
        t.elements["WorkoutStatistics"] += len(stats)
        if w.route:
            t.meta_keys["HKMetadataKeySyncVersion"] += 1
            t.elements["WorkoutRoute"] += 1
            t.elements["FileReference"] += 1
        t.span(w.start, w.end)

    def summary(self, d):
        active = math.fsum(float(row[4]) for row in active_rows(self.plan, d, watch_only=True))
        exercise = sum(int(row[4]) for row in exercise_rows(self.plan, d))
        stood = sum(1 for row in stand_hour_rows(self.plan, d) if row[4] == STOOD)
        self.put(f' <ActivitySummary dateComponents="{d.date.isoformat()}" activeEnergyBurned="{num(active, 6)}"'
                 f' activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleMoveTime="0"'
                 f' appleMoveTimeGoal="0" appleExerciseTime="{exercise}" appleExerciseTimeGoal="30"'
                 f' appleStandHours="{stood}" appleStandHoursGoal="12"/>\n', "ActivitySummary", None)
        self.tally.elements["ActivitySummary"] += 1
        self.tally.first_summary = self.tally.first_summary or d.date.isoformat()
        self.tally.last_summary = d.date.isoformat()


def route_name(plan, w):
    """route_YYYY-MM-DD_H.MMam.gpx, named after the local start, as the Health app names them."""
    t = plan.clock.local(w.start)
    return (f"route_{t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d}_{t.tm_hour % 12 or 12}.{t.tm_min:02d}"
            f"{'am' if t.tm_hour < 12 else 'pm'}.gpx")


def prologue(plan, export_ts, ios16):
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n{render_dtd(ios16)}<HealthData locale="en_US">\n'
            f' <ExportDate value="{plan.clock.fmt(export_ts)}"/>\n'
            ' <Me HKCharacteristicTypeIdentifierDateOfBirth="1980-05-01"'
            ' HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"'
            ' HKCharacteristicTypeIdentifierBloodType="HKBloodTypeAPositive"'
            ' HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"'
            ' HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>\n')


def export_time(plan):
    """09:00 local on the morning after the last day."""
    return plan.midnight(plan.ordinals[-1] + 1) + 9 * 3600


def write_export(plan, writer):
    """The whole export.xml: records by type, then correlations, workouts and activity summaries."""
    days = [plan.day(o) for o in plan.ordinals]
    writer.put(prologue(plan, export_time(plan), "dtd" in writer.malformed), "HealthData", None)
    if "dtd" in writer.malformed:   # where the declaration that is never closed begins
        head = prologue(plan, export_time(plan), True).split("<!ATTLIST VisionPrescription")[0]
        writer.notes["dtd"] = {"what": "HealthKit Export Version 12 (iOS 16) DTD: <!ATTLIST VisionPrescription> "
                               "not closed, MetadataEntry declared twice, a stray attribute line and '>'",
                               "offset": len(head.encode("utf-8")), "line": head.count("\n") + 1,
                               "records_before": 0, "records_before_by_type": {}, "count": 1}
    writer.tally.elements.update({"HealthData": 1, "ExportDate": 1, "Me": 1})
    for rtype, rows_of in RECORD_SECTIONS:
        for d in days:
            for row in rows_of(plan, d):
                writer.record(rtype, row, d.o)
    for d in days:
        pairs = zip(bp_rows(DIASTOLIC)(plan, d), bp_rows(SYSTOLIC)(plan, d))
        for diastolic, systolic in pairs:
            ts = diastolic[0]
            writer.correlation(BP_CORRELATION, HEALTH_MATE, ts, withings_meta(ts, 10),
                               [(DIASTOLIC, diastolic), (SYSTOLIC, systolic)], d.o)
    for d in days:
        for ts, meal, food, nutrients in d.meals:
            if meal == "Snacks":   # snacks are logged as loose Records only
                continue
            members = [(kind, meal_row(ts, meal, nutrients, kind)) for kind in FOOD_ORDER if kind in nutrients]
            writer.correlation(FOOD_CORRELATION, MFP, ts, [("HKFoodType", food), ("meal", meal)], members, d.o)
    for d in days:
        for w in d.workouts:
            writer.workout(w, d.o)
    for d in days:
        writer.summary(d)
    writer.put("</HealthData>\n", "HealthData", None)


# ---------------------------------------------------------------------------------------------------------
# The rest of the zip: export_cda.xml and the GPX route.

def cda_text(plan, export_ts):
    """A small export_cda.xml. Real ones close <ClinicalDocument> early and carry on with more <component>s,
    so the file has two roots; this one does too."""
    stamp = time.strftime("%Y%m%d%H%M%S", plan.clock.local(export_ts))
    first = plan.day(plan.ordinals[-1])
    obs = []
    for ts, systolic, _, _ in first.bp[:1] or [(first.wake, 120, 80, None)]:
        when = time.strftime("%Y%m%d%H%M%S", plan.clock.local(ts))
        obs.append(f'    <observation classCode="OBS" moodCode="EVN">\n'
                   f'     <code code="8480-6" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC"'
                   f' displayName="Systolic blood pressure"/>\n'
                   f'     <effectiveTime><low value="{when}"/><high value="{when}"/></effectiveTime>\n'
                   f'     <value xsi:type="PQ" value="{systolic}" unit="mm[Hg]"/>\n    </observation>\n')
    body = "".join(obs)
    return ('<?xml version="1.0"?>\n<?xml-stylesheet type="text/xsl" href="CDA.xsl"?>\n'
            '<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
            ' xmlns:sdtc="urn:hl7-org:sdtc">\n <realmCode code="US"/>\n'
            ' <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>\n'
            ' <templateId root="2.16.840.1.113883.10.20.22.1.2"/>\n'
            ' <code code="34109-9" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" displayName="Note"/>\n'
            f' <title>Health Data Export</title>\n <effectiveTime value="{stamp}"/>\n'
            ' <recordTarget><patientRole><patient><name><given>Sam</given></name>'
            '<administrativeGenderCode code="F"/><birthTime value="19800501"/></patient></patientRole>'
            '</recordTarget>\n'
            ' <component><structuredBody><component><section>\n  <title>Vital Signs</title>\n  <entry>\n'
            f'   <organizer classCode="CLUSTER" moodCode="EVN">\n   <component>\n{body}   </component>\n'
            '   </organizer>\n  </entry>\n</section></component></structuredBody></component>\n'
            '</ClinicalDocument>\n'
            f'<component>\n <section>\n  <entry>\n   <organizer classCode="CLUSTER" moodCode="EVN">\n'
            f'   <component>\n{body}   </component>\n   </organizer>\n  </entry>\n </section>\n</component>\n')


def gpx_text(plan, w):
    """A loop around a park in San Francisco, one point every 5 seconds."""
    seconds = w.end - w.start
    metres = w.m_min * seconds / 60
    radius = metres / (2 * math.pi)
    lat0, lon0 = 37.7694, -122.4862
    points = []
    for s in range(0, seconds + 1, 5):
        a = 2 * math.pi * s / seconds
        lat = lat0 + radius * math.sin(a) / 111320
        lon = lon0 + radius * (1 - math.cos(a)) / (111320 * math.cos(math.radians(lat0)))
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(w.start + s))
        points.append(f'   <trkpt lon="{lon:.6f}" lat="{lat:.6f}"><ele>{18 + 6 * math.sin(a * 3):.2f}</ele>'
                      f'<time>{stamp}</time><extensions><speed>{w.m_min / 60:.3f}</speed>'
                      f'<course>{math.degrees(a) % 360:.1f}</course><hAcc>2.4</hAcc><vAcc>1.7</vAcc>'
                      '</extensions></trkpt>\n')
    t = plan.clock.local(w.start)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Apple Health Export"'
            ' xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
            ' xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">\n'
            f' <metadata>\n  <time>{time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(w.start))}</time>\n </metadata>\n'
            f' <trk>\n  <name>Route {t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d} {t.tm_hour % 12 or 12}:'
            f'{t.tm_min:02d}{"am" if t.tm_hour < 12 else "pm"}</name>\n  <trkseg>\n'
            + "".join(points) + "  </trkseg>\n </trk>\n</gpx>\n")


def choose_route(plan):
    """The newest outdoor Watch run or walk (looking back at most 60 days) gets the WorkoutRoute."""
    for o in reversed(plan.ordinals[-60:]):
        for w in reversed(plan.day(o).workouts):
            if w.source is WATCH and w.activity in (RUN, WALK) and not w.indoor:
                w.route = True
                plan.route = w
                return


# ---------------------------------------------------------------------------------------------------------
# Sizing: a dry run counts bytes without writing them.

def dry_bytes(seed, ordinals, density, ends):
    """Bytes of an export of these days (with the range ends given, so forced days stay where they are)."""
    plan = Plan(seed, ordinals, density, ends=ends)
    sink = Sink(None)
    write_export(plan, Writer(plan, sink, Tally(), ()))
    return sink.offset


def estimate(seed, ordinals, density, ends):
    """(estimated XML bytes, bytes of the fixed part): exact for up to 28 days, else from the last 28."""
    plan = Plan(seed, ordinals, density)
    fixed = len((prologue(plan, export_time(plan), False) + "</HealthData>\n").encode("utf-8"))
    if len(ordinals) <= 28:
        return dry_bytes(seed, ordinals, density, ends), fixed
    sample = ordinals[-28:]
    per_day = (dry_bytes(seed, sample, density, (None, None)) - fixed) / len(sample)
    return int(fixed + per_day * len(ordinals)), fixed


# ---------------------------------------------------------------------------------------------------------
# Running it

KINDS = ("dtd", "control-chars", "attribute-spaces", "truncated", "truncated-zip", "broken-middle")
ABSURD_KINDS = {"glucose": GLUCOSE, "body_mass": MASS, "heart_rate": HEART}


def parse_size(text):
    t = text.strip().upper().replace("IB", "").rstrip("B")
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(t[-1:], 1)
    try:
        value = float(t[:-1] if scale > 1 else t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 500K, 100M, 1G)")
    if value <= 0:
        raise argparse.ArgumentTypeError("the size must be positive")
    return int(value * scale)


def parse_kinds(text):
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    for k in kinds:
        if k not in KINDS:
            raise argparse.ArgumentTypeError(f"unknown malformation {k!r}; known: {', '.join(KINDS)}")
    return kinds


def parse_date(text):
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date: {text!r} (YYYY-MM-DD)")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="make-health-export.py", description=__doc__.split("\n\n")[0],
                                epilog="The docstring at the top of the script describes the export, the "
                                       "malformations and the manifest.")
    p.add_argument("out", metavar="OUT", help="output path ending in .zip or .xml")
    p.add_argument("--seed", type=int, default=1, metavar="N", help="seed (default 1)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--days", type=int, metavar="D", help="days of data ending on --end-date (default 7)")
    g.add_argument("--size", type=parse_size, metavar="SIZE",
                   help="as many days as make about this many bytes of XML (K, M, G = powers of 1024)")
    p.add_argument("--end-date", type=parse_date, default=dt.date(2026, 11, 20), metavar="YYYY-MM-DD",
                   help="last day (default 2026-11-20); the export is dated 09:00 the morning after")
    p.add_argument("--zip", action="store_true", help="write a zip whatever OUT ends in")
    p.add_argument("--xml-name", default="export.xml", metavar="NAME", help="name of the XML in the zip")
    p.add_argument("--malformed", type=parse_kinds, default=[], metavar="KIND[,KIND...]",
                   help="one or more of " + ", ".join(KINDS))
    p.add_argument("--absurd", action="store_true", help="three each of glucose 90000 mg/dL, body mass -5 kg, "
                                                         "heart rate 0")
    p.add_argument("--manifest", metavar="FILE", help="write a JSON account of what was written")
    p.add_argument("--density", type=float, default=1.0, metavar="F",
                   help="0 < F <= 1: thin the many-per-day series for small files (default 1)")
    a = p.parse_args(argv)
    out = a.out.lower()
    a.container = "zip" if a.zip or out.endswith(".zip") else "xml" if out.endswith(".xml") else None
    if a.container is None:
        p.error("OUT must end in .zip or .xml (or give --zip)")
    if a.zip and a.out.lower().endswith(".xml"):
        p.error("--zip with an OUT ending in .xml")
    if "truncated-zip" in a.malformed and a.container != "zip":
        p.error("truncated-zip needs a zip")
    if not 0 < a.density <= 1:
        p.error("--density must be in (0, 1]")
    if a.days is not None and a.days < 1:
        p.error("--days must be at least 1")
    if "/" in a.xml_name or not a.xml_name:
        p.error("--xml-name is a file name, without folders")
    return a


def choose_days(a):
    last = a.end_date.toordinal()
    if a.size is None:
        days = a.days or 7
    else:
        sample = list(range(last - 27, last + 1))
        total, fixed = estimate(a.seed, sample, a.density, (None, None))
        days = max(1, round((a.size - fixed) / ((total - fixed) / len(sample))))
    return list(range(last - days + 1, last + 1))


def absurd_days(seed, ordinals):
    """Three days for each absurd value, spread by the seed."""
    chosen = {}
    for slot, kind in enumerate(sorted(ABSURD_KINDS)):
        r = random.Random(seed * 31 + slot)
        picks = set()
        for _ in range(12):
            if len(picks) == min(3, len(ordinals)):
                break
            picks.add(ordinals[int(r.random() * len(ordinals))])
        for o in picks:
            chosen.setdefault(o, set()).add(kind)
    return chosen


def make_plan(a, ordinals):
    plan = Plan(a.seed, ordinals, a.density, absurd_days(a.seed, ordinals) if a.absurd else None)
    choose_route(plan)
    return plan


def generate(a, plan, raw, progress):
    """Writes export.xml to raw (a file or a zip entry); returns (sink, tally, writer)."""
    ordinals = plan.ordinals
    # Where to cut, break or sprinkle depends on the size, known before writing only from a dry run.
    needs_size = {"truncated", "broken-middle", "control-chars"} & set(a.malformed)
    size = estimate(a.seed, ordinals, a.density, (ordinals[0], ordinals[-1]))[0] if needs_size else None
    r = random.Random(a.seed * 7 + 99)
    sink = Sink(raw, cut_at=int(size * uni(r, 0.55, 0.95)) if "truncated" in a.malformed else None,
                progress=progress)
    tally = Tally()
    writer = Writer(plan, sink, tally, a.malformed)
    if "broken-middle" in a.malformed:
        writer.break_at = int(size * uni(r, 0.4, 0.6))
    if "control-chars" in a.malformed:
        writer.cc_every = max(20, size // (450 * 25))   # records average ~450 bytes: about 25 in all
    try:
        write_export(plan, writer)
    except Truncated:
        element, kind = writer.item
        writer.notes["truncated"] = dict(what="XML cut off", cut_item={"element": element, "type": kind},
                                         offset=sink.offset, line=sink.lines + 1, count=1, **tally.snapshot())
    sink.flush()
    return sink, tally, writer


def zip_info(name, plan, export_ts):
    t = plan.clock.local(export_ts)
    info = zipfile.ZipInfo(name, date_time=(max(1980, t.tm_year), t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min,
                                            t.tm_sec))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def write_output(a, ordinals):
    plan = make_plan(a, ordinals)
    progress = a.size is not None and a.size > 20 << 20 or len(ordinals) > 60
    entries = []
    if a.container == "xml":
        with open(a.out, "wb") as raw:
            sink, tally, writer = generate(a, plan, raw, progress)
    else:
        export_ts = export_time(plan)
        folder = "apple_health_export/"
        with zipfile.ZipFile(a.out, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as zf:
            zf.writestr(zip_info(folder + "export_cda.xml", plan, export_ts), cda_text(plan, export_ts))
            with zf.open(zip_info(folder + a.xml_name, plan, export_ts), "w", force_zip64=True) as raw:
                sink, tally, writer = generate(a, plan, raw, progress)
            if plan.route is not None:
                zf.writestr(zip_info(folder + "workout-routes/" + route_name(plan, plan.route), plan, export_ts),
                            gpx_text(plan, plan.route))
            entries = [{"name": i.filename, "size": i.file_size, "compressed": i.compress_size}
                       for i in zf.infolist()]
    if "truncated-zip" in a.malformed:
        size = os.path.getsize(a.out)
        cut = int(size * uni(random.Random(a.seed * 11 + 5), 0.5, 0.95))
        with open(a.out, "r+b") as f:
            f.truncate(cut)
        writer.notes["truncated-zip"] = {"what": "zip file cut off", "zip_bytes_before": size, "offset": cut,
                                         "count": 1}
    return plan, sink, tally, writer, entries


def manifest(a, ordinals, plan, sink, tally, writer, entries):
    by_type_unit = {}
    for (rtype, unit), n in tally.by_type_unit.items():
        by_type_unit.setdefault(rtype, {})[unit] = n
    notes = {}
    for kind, note in writer.notes.items():
        note = dict(note)
        if isinstance(note.get("types"), Counter):
            note["types"] = dict(note["types"])
        notes[kind] = note
    xml_errors = [n for k, n in notes.items() if k != "truncated-zip"]
    first_error = min(xml_errors, key=lambda n: n["offset"]) if xml_errors else None
    if first_error is not None:
        first_error = {k: first_error[k] for k in ("offset", "line", "records_before", "records_before_by_type")}
        first_error["kind"] = [k for k, n in notes.items() if n.get("offset") == first_error["offset"]
                               and k != "truncated-zip"][0]
    fmt = plan.clock.fmt
    return {
        "generator": "Tests/Fixtures/health/make-health-export.py",
        "arguments": {"seed": a.seed, "days": len(ordinals), "size": a.size, "end_date": a.end_date.isoformat(),
                      "density": a.density, "absurd": a.absurd, "malformed": a.malformed, "xml_name": a.xml_name,
                      "container": a.container},
        "export_date": fmt(export_time(plan)),
        "date_range": {"first_day": dt.date.fromordinal(ordinals[0]).isoformat(),
                       "last_day": dt.date.fromordinal(ordinals[-1]).isoformat(), "days": len(ordinals),
                       "earliest_start": fmt(tally.earliest) if tally.earliest is not None else None,
                       "latest_end": fmt(tally.latest) if tally.latest is not None else None,
                       "first_summary": tally.first_summary, "last_summary": tally.last_summary},
        "sources": [s.name for s in SOURCES],
        "elements": {k: n for k, n in tally.elements.items() if n},
        "top_level_records": sum(tally.by_type.values()),
        "nested_records": sum(tally.nested_by_type.values()),
        "records_by_type": dict(tally.by_type),
        "records_by_type_unit": by_type_unit,
        "nested_records_by_type": dict(tally.nested_by_type),
        "records_by_source": dict(tally.by_source),
        "correlations_by_type": dict(tally.correlations),
        "workouts_by_activity_type": dict(tally.workouts),
        "workouts_by_form": dict(tally.forms),
        "activity_summaries": tally.elements["ActivitySummary"],
        "metadata_by_key": dict(tally.meta_keys),
        "unmapped_types": [t for t in UNMAPPED if tally.by_type[t]],
        "absurd": {"count": sum(tally.absurd.values()), "by_type": dict(tally.absurd), "values": tally.absurd_values},
        "malformed": notes,
        "first_error": first_error,
        "well_formed": not xml_errors,
        "bytes": {"xml": sink.offset, "file": os.path.getsize(a.out), "zip_entries": entries},
    }


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    ordinals = choose_days(a)
    started = time.monotonic()
    plan, sink, tally, writer, entries = write_output(a, ordinals)
    if a.manifest:
        with open(a.manifest, "w", encoding="utf-8") as f:
            json.dump(manifest(a, ordinals, plan, sink, tally, writer, entries), f, indent=1, sort_keys=True,
                      ensure_ascii=False)
            f.write("\n")
    if sink.progress:
        seconds = time.monotonic() - started
        print(f"make-health-export: {a.out}: {sink.offset / 1e6:,.1f} MB of XML, {len(ordinals)} days,"
              f" {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (OSError, ValueError) as e:
        print(f"make-health-export: {e}", file=sys.stderr)
        sys.exit(1)
