#!/usr/bin/python3
"""Self-check of the BlueZ stand-in, and a worked description of how it behaves.

Starts a private dbus-daemon (bus.conf) and standin_bluez.py on it, drives every scenario
feature with dbus-python as a BlueZ client would, asserts what comes back, then stops both
processes. Exits 0 when everything holds.

    /usr/bin/python3 Tests/Fixtures/bluez/smoke_test.py [--show-log]

--show-log prints the stand-in's stderr (every call it received, what it did) after each run.
"""

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time

import dbus
import dbus.bus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

HERE = os.path.dirname(os.path.abspath(__file__))
BUS_CONF = os.path.join(HERE, 'bus.conf')
STANDIN = os.path.join(HERE, 'standin_bluez.py')
PYTHON = '/usr/bin/python3'

PROPERTIES = 'org.freedesktop.DBus.Properties'
OBJECT_MANAGER = 'org.freedesktop.DBus.ObjectManager'
ADAPTER = 'org.bluez.Adapter1'
DEVICE = 'org.bluez.Device1'
SERVICE = 'org.bluez.GattService1'
CHARACTERISTIC = 'org.bluez.GattCharacteristic1'
DESCRIPTOR = 'org.bluez.GattDescriptor1'
AGENT_MANAGER = 'org.bluez.AgentManager1'
AGENT = 'org.bluez.Agent1'
CONTROL = 'org.vitalsnap.StandIn1'
CONTROL_PATH = '/org/vitalsnap/standin'
ADAPTER_PATH = '/org/bluez/hci0'


def full(uuid16):
    return '0000%s-0000-1000-8000-00805f9b34fb' % uuid16.lower()


def device_path(address):
    return '%s/dev_%s' % (ADAPTER_PATH, address.replace(':', '_'))


# --------------------------------------------------------------------------------------------
# The scenario
# --------------------------------------------------------------------------------------------

METER = '00:09:1F:80:00:01'       # glucose meter, passkey 123456, three stored records
CUFF = '5C:31:3E:00:00:02'        # blood pressure cuff, no pairing needed, indicates on subscribe
HEART = '11:22:33:44:55:66'       # a heart rate sensor: a UUID filter for 1808 must hide it
PIN_METER = '00:09:1F:80:00:03'   # glucose meter, PIN 000000
REFUSER = '00:09:1F:80:00:04'     # refuses every pairing
DROPPER = '00:09:1F:80:00:05'     # hangs up after 3 notifications
SILENT = '00:09:1F:80:00:06'      # connects, never sends anything
SLOW = '00:09:1F:80:00:07'        # never answers a connection attempt
BROKEN = '00:09:1F:80:00:08'      # connection attempts fail
EMPTY = '00:09:1F:80:00:09'       # glucose meter without records
LATE = '00:09:1F:80:00:0A'        # not advertising until told to
KEYPAD = '00:09:1F:80:00:0B'      # glucose meter, passkey 654321 (pairing gets cancelled)


def measurement(sequence):
    # flags (concentration present), sequence number, base time, concentration, type/location
    return bytes([0x02]) + sequence.to_bytes(2, 'little') + bytes.fromhex('e407030e0e1e00b0f811')


def context(sequence):
    # flags (meal present), sequence number, meal = preprandial
    return bytes([0x02]) + sequence.to_bytes(2, 'little') + bytes([0x01])


M1, M2, M3 = measurement(1), measurement(2), measurement(3)
C1, C3 = context(1), context(3)
RECORDS = [{'measurement': M1.hex(), 'context': C1.hex()},
           {'measurement': M2.hex(), 'context': ''},
           {'measurement': M3.hex(), 'context': C3.hex()}]
# flags, systolic, diastolic, mean arterial pressure, time stamp, pulse, user, status
CUFF_READINGS = [bytes.fromhex('1e' '7800' '5000' '6400' 'e40703040e1e00' '4800' '01' '0000'),
                 bytes.fromhex('1e' '7d00' '5200' '6500' 'e40703040e2300' '4700' '01' '0000')]


def glucose_services():
    return [{'uuid': '1808', 'characteristics': [
        {'uuid': '2A18', 'flags': ['notify']},
        {'uuid': '2A34', 'flags': ['notify']},
        {'uuid': '2A51', 'flags': ['read'], 'value': '0000'},
        {'uuid': '2A52', 'flags': ['write', 'indicate'], 'racp': True},
    ]}]


def meter(address, name, pairing, records=RECORDS, **extra):
    device = {'address': address, 'name': name, 'advertised_uuids': ['1808'],
              'pairing': pairing, 'services': glucose_services(), 'stored_records': records}
    device.update(extra)
    return device


SCENARIO = {
    'adapter': {'powered': True, 'address': '00:1A:7D:DA:71:13'},
    'connect_timeout': 1.0,
    'devices': [
        meter(METER, 'meter+06123456', {'passkey': 123456}),
        {'address': CUFF, 'name': 'A&D_UA-651BLE_123', 'advertised_uuids': ['1810'],
         'pairing': 'none',
         'services': [{'uuid': '1810', 'characteristics': [
             {'uuid': '2A35', 'flags': ['indicate'],
              'on_subscribe': [r.hex() for r in CUFF_READINGS]},
             {'uuid': '2A49', 'flags': ['read'], 'value': '0100'}]}]},
        {'address': HEART, 'name': 'HRM', 'advertised_uuids': ['180D'], 'address_type': 'random',
         'services': [{'uuid': '180D', 'characteristics': [
             {'uuid': '2A37', 'flags': ['notify']}]}]},
        meter(PIN_METER, 'meter+pin', {'pin': '000000'}),
        meter(REFUSER, 'meter+refuser', 'refuse'),
        meter(DROPPER, 'meter+dropper', 'none', faults={'disconnect_after_notifications': 3}),
        meter(SILENT, 'meter+silent', 'none', faults={'silent': True}),
        meter(SLOW, 'meter+slow', 'none', faults={'connect': 'timeout'}),
        meter(BROKEN, 'meter+broken', 'none', faults={'connect': 'fail'}),
        meter(EMPTY, 'meter+empty', 'none', records=[]),
        meter(LATE, 'meter+late', 'none', advertising=False),
        meter(KEYPAD, 'meter+keypad', {'passkey': 654321}),
    ],
}

POWERED_OFF_SCENARIO = {
    'adapter': {'powered': False},
    'devices': [meter(METER, 'meter+06123456', 'none')],
}


# --------------------------------------------------------------------------------------------
# Processes
# --------------------------------------------------------------------------------------------

def read_line(stream, timeout):
    ready, _, _ = select.select([stream], [], [], timeout)
    return stream.readline().decode().strip() if ready else None


class Processes:
    """The dbus-daemon and stand-in processes this test starts, and nothing else."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.daemon = None
        self.standin = None
        self.standin_log = None

    def start_bus(self):
        self.daemon = subprocess.Popen(
            ['dbus-daemon', '--config-file=' + BUS_CONF, '--nofork', '--print-address=1'],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        address = read_line(self.daemon.stdout, 10)
        if not address:
            raise RuntimeError('dbus-daemon printed no address')
        return address

    def start_standin(self, address, scenario, name):
        path = os.path.join(self.workdir, name + '.json')
        with open(path, 'w') as handle:
            json.dump(scenario, handle)
        self.standin_log = open(os.path.join(self.workdir, name + '.log'), 'w+')
        self.standin = subprocess.Popen([PYTHON, STANDIN, '--address', address, '--scenario', path],
                                        stdout=subprocess.PIPE, stderr=self.standin_log)
        line = read_line(self.standin.stdout, 10)
        if line != 'READY':
            raise RuntimeError('stand-in said %r instead of READY' % line)

    def stop_standin(self):
        """SIGTERM; the stand-in must exit 0 promptly."""
        if self.standin is None:
            return None
        self.standin.send_signal(signal.SIGTERM)
        try:
            code = self.standin.wait(5)
        except subprocess.TimeoutExpired:
            self.standin.kill()
            code = self.standin.wait()
        self.standin.stdout.close()
        self.standin = None
        return code

    def standin_stderr_tail(self, lines=40):
        if self.standin_log is None:
            return ''
        self.standin_log.flush()
        self.standin_log.seek(0)
        return ''.join(self.standin_log.readlines()[-lines:])

    def stop_all(self):
        self.stop_standin()
        if self.daemon is not None:
            self.daemon.terminate()
            try:
                self.daemon.wait(5)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait()
            self.daemon.stdout.close()
            self.daemon = None


# --------------------------------------------------------------------------------------------
# A small BlueZ client
# --------------------------------------------------------------------------------------------

def unwrap(value):
    """dbus-python values -> plain Python (ay -> bytes)."""
    if isinstance(value, dbus.ByteArray):
        return bytes(value)
    if isinstance(value, dbus.Array):
        if value.signature == 'y':
            return bytes(int(b) for b in value)
        return [unwrap(v) for v in value]
    if isinstance(value, dict):
        return {str(k): unwrap(v) for k, v in value.items()}
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.String, dbus.ObjectPath)):
        return str(value)
    if isinstance(value, int):
        return int(value)
    return value


def spin(until, timeout):
    """Run the main loop until `until()` holds or `timeout` seconds pass; returns until()."""
    context = GLib.MainContext.default()
    deadline = time.monotonic() + timeout
    tick = GLib.timeout_add(20, lambda: True)      # wake up at least every 20 ms
    try:
        while not until() and time.monotonic() < deadline:
            context.iteration(True)
        return until()
    finally:
        GLib.source_remove(tick)


def settle(seconds):
    spin(lambda: False, seconds)


class Client:
    """A BlueZ client on the private bus: every call is asynchronous and the main loop spins
    while it waits, so the agent this client exports can answer the stand-in in between."""

    def __init__(self, address):
        self.bus = dbus.bus.BusConnection(address)
        self.events = []
        self.bus.add_signal_receiver(self._signal, sender_keyword='sender',
                                     interface_keyword='interface', member_keyword='member',
                                     path_keyword='path')

    def _signal(self, *args, sender=None, interface=None, member=None, path=None):
        if interface == PROPERTIES and member == 'PropertiesChanged':
            self.events.append(('changed', str(path), str(args[0]), unwrap(args[1]),
                                [str(n) for n in args[2]]))
        elif interface == OBJECT_MANAGER and member == 'InterfacesAdded':
            self.events.append(('added', str(args[0]), unwrap(args[1])))
        elif interface == OBJECT_MANAGER and member == 'InterfacesRemoved':
            self.events.append(('removed', str(args[0]), [str(n) for n in args[1]]))

    def begin(self, path, interface, member, *args, signature=None, timeout=5.0):
        """Send a call to org.bluez; finish() waits for its answer."""
        answer = {'timeout': timeout, 'what': '%s on %s' % (member, path)}
        self.bus.call_async('org.bluez', path, interface, member, signature, args,
                            lambda *values: answer.setdefault('values', values),
                            lambda error: answer.setdefault('error', error),
                            timeout=timeout)
        return answer

    def finish(self, answer):
        if not spin(lambda: 'values' in answer or 'error' in answer, answer['timeout'] + 2):
            raise AssertionError('no answer to %s' % answer['what'])
        if 'error' in answer:
            raise answer['error']
        values = answer['values']
        return unwrap(values[0]) if len(values) == 1 else None

    def call(self, path, interface, member, *args, signature=None, timeout=5.0):
        return self.finish(self.begin(path, interface, member, *args, signature=signature,
                                      timeout=timeout))

    def control(self, member, *args, signature=None):
        return self.call(CONTROL_PATH, CONTROL, member, *args, signature=signature)

    def managed_objects(self):
        return self.call('/', OBJECT_MANAGER, 'GetManagedObjects')

    def get(self, path, interface, name):
        return self.call(path, PROPERTIES, 'Get', interface, name)

    def set(self, path, interface, name, value):
        return self.call(path, PROPERTIES, 'Set', interface, name, value, signature='ssv')

    # -- signals seen --

    def mark(self):
        return len(self.events)

    def since(self, mark):
        return self.events[mark:]

    def wait_for(self, predicate, mark, timeout=2.0):
        """The first event after `mark` that matches, waiting for it if needed."""
        found = []

        def check():
            found[:] = [e for e in self.events[mark:] if predicate(e)]
            return bool(found)

        if not spin(check, timeout):
            raise AssertionError('no matching signal within %.1f s' % timeout)
        return found[0]

    def values(self, mark, paths):
        """(path, bytes) of every notification (Value change) after `mark` on these paths."""
        return [(e[1], e[3]['Value']) for e in self.events[mark:]
                if e[0] == 'changed' and e[1] in paths and e[2] == CHARACTERISTIC
                and 'Value' in e[3]]


def changed(path, name, value=None):
    """Predicate: PropertiesChanged on `path` setting `name` (to `value` when given)."""
    return lambda e: (e[0] == 'changed' and e[1] == path and name in e[3]
                      and (value is None or e[3][name] == value))


def invalidated(path, name):
    return lambda e: e[0] == 'changed' and e[1] == path and name in e[4]


def added(path):
    return lambda e: e[0] == 'added' and e[1] == path


def removed(path):
    return lambda e: e[0] == 'removed' and e[1] == path


def expect_error(name, function, *args, **kwargs):
    try:
        function(*args, **kwargs)
    except dbus.DBusException as error:
        if error.get_dbus_name() != name:
            raise AssertionError('expected %s, got %s: %s'
                                 % (name, error.get_dbus_name(), error.get_dbus_message()))
        return error
    raise AssertionError('expected %s, the call succeeded' % name)


def check(condition, message):
    if not condition:
        raise AssertionError(message)


class TestAgent(dbus.service.Object):
    """An org.bluez.Agent1 whose answers each test sets."""

    def __init__(self, bus, path):
        dbus.service.Object.__init__(self, bus, path)
        self.path = path
        self.passkey = 0
        self.pin = ''
        self.refuse = False
        self.hold = False          # leave RequestPasskey unanswered (for CancelPairing)
        self.asked = []

    @dbus.service.method(AGENT, in_signature='o', out_signature='u',
                         async_callbacks=('reply', 'error'))
    def RequestPasskey(self, device, reply, error):
        self.asked.append(('RequestPasskey', str(device)))
        if self.hold:
            return
        if self.refuse:
            error(dbus.DBusException('refused', name='org.bluez.Error.Rejected'))
        else:
            reply(dbus.UInt32(self.passkey))

    @dbus.service.method(AGENT, in_signature='o', out_signature='s')
    def RequestPinCode(self, device):
        self.asked.append(('RequestPinCode', str(device)))
        if self.refuse:
            raise dbus.DBusException('refused', name='org.bluez.Error.Rejected')
        return self.pin

    @dbus.service.method(AGENT, in_signature='', out_signature='')
    def Cancel(self):
        self.asked.append(('Cancel', ''))

    @dbus.service.method(AGENT, in_signature='', out_signature='')
    def Release(self):
        self.asked.append(('Release', ''))


# --------------------------------------------------------------------------------------------
# The checks, in order (each builds on the state the previous ones left)
# --------------------------------------------------------------------------------------------

class Checks:
    def __init__(self, client):
        self.c = client
        self.agent = None

    # -- helpers --

    def gatt_paths(self, address):
        """{characteristic UUID: path} of a connected device, from GetManagedObjects."""
        prefix = device_path(address) + '/'
        paths = {}
        for path, interfaces in self.c.managed_objects().items():
            if path.startswith(prefix) and CHARACTERISTIC in interfaces:
                paths[interfaces[CHARACTERISTIC]['UUID']] = path
        return paths

    def connect(self, address):
        self.c.call(device_path(address), DEVICE, 'Connect')
        return self.gatt_paths(address)

    def write(self, path, payload):
        self.c.call(path, CHARACTERISTIC, 'WriteValue', dbus.ByteArray(payload), {},
                    signature='aya{sv}')

    def racp_exchange(self, paths, request, timeout=2.0):
        """Write to the RACP and collect notifications until its indication (or timeout)."""
        racp = paths[full('2a52')]
        watched = {paths[full('2a18')]: 'M', paths[full('2a34')]: 'C', racp: 'R'}
        mark = self.c.mark()
        self.write(racp, request)
        self.c.wait_for(changed(racp, 'Value'), mark, timeout)
        return [(watched[p], v) for p, v in self.c.values(mark, watched)]

    # -- the checks --

    def startup_objects(self):
        objects = self.c.managed_objects()
        check(AGENT_MANAGER in objects['/org/bluez'], 'AgentManager1 at /org/bluez')
        adapter = objects[ADAPTER_PATH][ADAPTER]
        check(adapter['Address'] == '00:1A:7D:DA:71:13', 'adapter address')
        check(adapter['Powered'] is True and adapter['Discovering'] is False, 'adapter state')
        check(not any(p.startswith(ADAPTER_PATH + '/') for p in objects),
              'no device before discovery (none is paired)')
        check(self.c.get(ADAPTER_PATH, ADAPTER, 'Powered') is True, 'Properties.Get')
        check(self.c.call(ADAPTER_PATH, PROPERTIES, 'GetAll', ADAPTER)['Name'], 'GetAll')
        expect_error('org.freedesktop.DBus.Error.PropertyReadOnly',
                     self.c.set, ADAPTER_PATH, ADAPTER, 'Address', dbus.String('x'))

    def discovery_with_uuid_filter(self):
        self.c.control('ResetCalls')
        check('UUIDs' in self.c.call(ADAPTER_PATH, ADAPTER, 'GetDiscoveryFilters'),
              'GetDiscoveryFilters lists UUIDs')
        mark = self.c.mark()
        self.c.call(ADAPTER_PATH, ADAPTER, 'SetDiscoveryFilter',
                    {'UUIDs': dbus.Array([full('1808')], signature='s'),
                     'Transport': dbus.String('le')}, signature='a{sv}')
        self.c.call(ADAPTER_PATH, ADAPTER, 'StartDiscovery')
        self.c.wait_for(changed(ADAPTER_PATH, 'Discovering', True), mark)
        found = self.c.wait_for(added(device_path(METER)), mark)
        props = found[2][DEVICE]
        check(props['Address'] == METER and props['Name'] == 'meter+06123456', 'meter identity')
        check(props['UUIDs'] == [full('1808')], 'advertised UUIDs in 128-bit form')
        check(props['RSSI'] in (-60, -61) and props['AddressType'] == 'public', 'RSSI, type')
        check(props['Connected'] is False and props['Paired'] is False, 'not connected/paired')
        check(props['Adapter'] == ADAPTER_PATH, 'Adapter property')
        settle(0.7)
        seen = {e[1] for e in self.c.since(mark) if e[0] == 'added'}
        check(device_path(HEART) not in seen and device_path(CUFF) not in seen,
              'devices without 1808 are not reported')
        check(device_path(LATE) not in seen, 'a device that does not advertise is not reported')
        check(device_path(PIN_METER) in seen, 'every 1808 advertiser is reported')
        expect_error('org.bluez.Error.InProgress', self.c.call, ADAPTER_PATH, ADAPTER,
                     'StartDiscovery')
        calls = self.c.control('Calls')
        check('SetDiscoveryFilter hci0 Transport=le UUIDs=%s' % full('1808') in calls, calls)
        check('StartDiscovery hci0' in calls, calls)
        # An empty filter lets everything through.
        mark = self.c.mark()
        self.c.call(ADAPTER_PATH, ADAPTER, 'SetDiscoveryFilter', {}, signature='a{sv}')
        self.c.wait_for(added(device_path(HEART)), mark)
        self.c.wait_for(added(device_path(CUFF)), mark)

    def advertising_rssi_and_removal(self):
        cuff = device_path(CUFF)
        mark = self.c.mark()
        settle(1.3)
        rssi = [e[3]['RSSI'] for e in self.c.since(mark) if changed(cuff, 'RSSI')(e)]
        check(len(rssi) >= 3, 'RSSI updates every 0.3 s while advertising: %s' % rssi)
        check(set(rssi) <= {-60, -61} and all(a != b for a, b in zip(rssi, rssi[1:])),
              'RSSI alternates: %s' % rssi)
        late = device_path(LATE)
        mark = self.c.mark()
        self.c.control('SetAdvertising', LATE, True)
        self.c.wait_for(added(late), mark)
        mark = self.c.mark()
        self.c.control('SetAdvertising', LATE, False)
        started = time.monotonic()
        self.c.wait_for(invalidated(late, 'RSSI'), mark)
        self.c.wait_for(removed(late), mark, timeout=3)
        waited = time.monotonic() - started
        check(0.7 < waited < 2.5, 'removed after temporary_timeout (1 s), took %.2f s' % waited)

    def connect_and_gatt(self):
        meter = device_path(METER)
        mark = self.c.mark()
        self.c.call(meter, DEVICE, 'Connect')
        events = self.c.since(mark)
        kinds = [(e[0], e[1]) for e in events if not changed(meter, 'RSSI')(e)]
        connected = next(i for i, e in enumerate(events) if changed(meter, 'Connected', True)(e))
        resolved = next(i for i, e in enumerate(events)
                        if changed(meter, 'ServicesResolved', True)(e))
        gatt = [i for i, e in enumerate(events) if e[0] == 'added']
        check(gatt and connected < min(gatt) and max(gatt) < resolved,
              'Connected, then the GATT objects, then ServicesResolved: %s' % kinds)
        added_paths = [events[i][1] for i in gatt]
        check(added_paths[:3] == [meter + '/service000a', meter + '/service000a/char000b',
                                  meter + '/service000a/char000b/desc000d'],
              'service, characteristic, its CCCD: %s' % added_paths)
        objects = self.c.managed_objects()
        service = objects[meter + '/service000a'][SERVICE]
        check(service == {'UUID': full('1808'), 'Primary': True, 'Device': meter,
                          'Includes': []}, service)
        cccd = objects[meter + '/service000a/char000b/desc000d'][DESCRIPTOR]
        check(cccd['UUID'] == full('2902') and cccd['Characteristic'] == added_paths[1], cccd)
        paths = self.gatt_paths(METER)
        measurement = objects[paths[full('2a18')]][CHARACTERISTIC]
        check(measurement['Flags'] == ['notify'] and measurement['Notifying'] is False,
              measurement)
        check(measurement['Service'] == meter + '/service000a', 'Service property')
        racp = objects[paths[full('2a52')]][CHARACTERISTIC]
        check(racp['Flags'] == ['write', 'indicate'], racp)
        device = objects[meter][DEVICE]
        check(device['Connected'] and device['ServicesResolved'], 'connected and resolved')
        self.c.call(meter, DEVICE, 'Connect')           # already connected: plain success
        self.meter_paths = paths

    def pairing_with_passkey(self):
        meter = device_path(METER)
        expect_error('org.bluez.Error.AuthenticationFailed', self.c.call, meter, DEVICE, 'Pair')
        self.agent = TestAgent(self.c.bus, '/test/agent')
        self.c.call('/org/bluez', AGENT_MANAGER, 'RegisterAgent', dbus.ObjectPath('/test/agent'),
                    'KeyboardDisplay', signature='os')
        self.c.call('/org/bluez', AGENT_MANAGER, 'RequestDefaultAgent',
                    dbus.ObjectPath('/test/agent'), signature='o')
        expect_error('org.bluez.Error.AlreadyExists', self.c.call, '/org/bluez', AGENT_MANAGER,
                     'RegisterAgent', dbus.ObjectPath('/test/agent'), '', signature='os')
        self.agent.passkey = 111111
        expect_error('org.bluez.Error.AuthenticationFailed', self.c.call, meter, DEVICE, 'Pair')
        check(self.agent.asked[-1] == ('RequestPasskey', meter), self.agent.asked)
        self.agent.refuse = True
        expect_error('org.bluez.Error.AuthenticationCanceled', self.c.call, meter, DEVICE, 'Pair')
        self.agent.refuse = False
        self.agent.passkey = 123456
        mark = self.c.mark()
        self.c.call(meter, DEVICE, 'Pair')
        self.c.wait_for(changed(meter, 'Paired', True), mark)
        check(self.c.get(meter, DEVICE, 'Bonded') is True, 'Bonded')
        expect_error('org.bluez.Error.AlreadyExists', self.c.call, meter, DEVICE, 'Pair')

    def racp_reports(self):
        paths = self.meter_paths
        racp, meas, ctx = paths[full('2a52')], paths[full('2a18')], paths[full('2a34')]
        expect_error('org.bluez.Error.NotPermitted', self.write, racp, b'\x01\x01')
        mark = self.c.mark()
        self.c.call(meas, CHARACTERISTIC, 'StartNotify')
        self.c.wait_for(changed(meas, 'Notifying', True), mark)
        self.c.call(ctx, CHARACTERISTIC, 'StartNotify')
        expect_error('org.bluez.Error.NotPermitted', self.write, racp, b'\x01\x01')
        self.c.call(racp, CHARACTERISTIC, 'StartNotify')
        self.c.call(racp, CHARACTERISTIC, 'StartNotify')     # a repeat is fine
        all_records = [('M', M1), ('C', C1), ('M', M2), ('M', M3), ('C', C3),
                       ('R', bytes.fromhex('06000101'))]
        got = self.racp_exchange(paths, bytes.fromhex('0101'))
        check(got == all_records, 'report all, in order: %s' % got)
        got = self.racp_exchange(paths, bytes.fromhex('0103010200'))
        check(got == all_records[2:], 'report >= 2: %s' % got)
        got = self.racp_exchange(paths, bytes.fromhex('0401'))
        check(got == [('R', bytes.fromhex('05000300'))], 'count all: %s' % got)
        got = self.racp_exchange(paths, bytes.fromhex('0403010300'))
        check(got == [('R', bytes.fromhex('05000100'))], 'count >= 3: %s' % got)
        got = self.racp_exchange(paths, bytes.fromhex('0103010900'))
        check(got == [('R', bytes.fromhex('06000106'))], 'none >= 9: %s' % got)
        got = self.racp_exchange(paths, bytes.fromhex('0300'))
        check(got == [('R', bytes.fromhex('06000301'))], 'abort: %s' % got)
        got = self.racp_exchange(paths, bytes.fromhex('0701'))
        check(got == [('R', bytes.fromhex('06000702'))], 'unknown op code: %s' % got)
        got = self.racp_exchange(paths, bytes.fromhex('0105'))
        check(got == all_records[:2] + all_records[-1:], 'first record: %s' % got)
        got = self.racp_exchange(paths, bytes.fromhex('01040102000300'))
        check(got == all_records[2:], 'range 2..3: %s' % got)
        for request, code in (('0100', '03'), ('010301', '05'), ('0103020100', '09')):
            got = self.racp_exchange(paths, bytes.fromhex(request))
            check(got == [('R', bytes.fromhex('060001' + code))], '%s: %s' % (request, got))
        expect_error('org.bluez.Error.InvalidArguments', self.write, racp, b'')
        # A second request while records are still being sent: procedure already in progress.
        # (Both writes are sent back to back, so the second arrives before any notification.)
        mark = self.c.mark()
        first = self.c.begin(racp, CHARACTERISTIC, 'WriteValue', dbus.ByteArray(b'\x01\x01'), {},
                             signature='aya{sv}')
        second = self.c.begin(racp, CHARACTERISTIC, 'WriteValue', dbus.ByteArray(b'\x04\x01'),
                              {}, signature='aya{sv}')
        self.c.finish(first)
        error = expect_error('org.bluez.Error.Failed', self.c.finish, second)
        check(error.get_dbus_message() == 'Operation failed with ATT error: 0x80', error)
        self.c.wait_for(changed(racp, 'Value', bytes.fromhex('06000101')), mark)
        calls = self.c.control('Calls')
        check('WriteValue %s 0101' % racp.rsplit('/', 1)[1] in calls, calls)
        check('StartNotify %s' % meas.rsplit('/', 1)[1] in calls, calls)
        mark = self.c.mark()
        self.c.call(ctx, CHARACTERISTIC, 'StopNotify')
        self.c.wait_for(changed(ctx, 'Notifying', False), mark)
        expect_error('org.bluez.Error.Failed', self.c.call, ctx, CHARACTERISTIC, 'StopNotify')
        got = self.racp_exchange(paths, bytes.fromhex('0103010300'))
        check(got == [('M', M3), ('R', bytes.fromhex('06000101'))],
              'contexts are not delivered once 2A34 stops notifying: %s' % got)

    def no_records_then_one(self):
        paths = self.connect(EMPTY)
        for uuid in ('2a18', '2a34', '2a52'):
            self.c.call(paths[full(uuid)], CHARACTERISTIC, 'StartNotify')
        got = self.racp_exchange(paths, bytes.fromhex('0101'))
        check(got == [('R', bytes.fromhex('06000106'))], 'no records: %s' % got)
        got = self.racp_exchange(paths, bytes.fromhex('0401'))
        check(got == [('R', bytes.fromhex('05000000'))], 'count 0: %s' % got)
        self.c.control('AddStoredRecord', EMPTY, dbus.ByteArray(M1), dbus.ByteArray(b''),
                       signature='sayay')
        got = self.racp_exchange(paths, bytes.fromhex('0101'))
        check(got == [('M', M1), ('R', bytes.fromhex('06000101'))], 'added record: %s' % got)
        # Disconnect: GATT objects go, then ServicesResolved and Connected turn false.
        empty = device_path(EMPTY)
        mark = self.c.mark()
        self.c.call(empty, DEVICE, 'Disconnect')
        events = [e for e in self.c.since(mark) if not changed(empty, 'RSSI')(e)]
        gone = [i for i, e in enumerate(events) if e[0] == 'removed']
        resolved = next(i for i, e in enumerate(events)
                        if changed(empty, 'ServicesResolved', False)(e))
        connected = next(i for i, e in enumerate(events) if changed(empty, 'Connected', False)(e))
        check(len(gone) == 8 and max(gone) < resolved < connected,
              'removed GATT objects, ServicesResolved, Connected: %s' % events)
        expect_error('org.bluez.Error.NotConnected', self.c.call, empty, DEVICE, 'Disconnect')

    def pin_and_refused_pairing(self):
        pin_meter = device_path(PIN_METER)
        self.agent.pin = '000000'
        mark = self.c.mark()
        self.c.call(pin_meter, DEVICE, 'Pair')
        check(self.agent.asked[-1] == ('RequestPinCode', pin_meter), self.agent.asked)
        self.c.wait_for(changed(pin_meter, 'Paired', True), mark)
        check(self.c.get(pin_meter, DEVICE, 'Connected') is True,
              'pairing brought the link up, as bluetoothd does for LE')
        refuser = device_path(REFUSER)
        mark = self.c.mark()
        expect_error('org.bluez.Error.AuthenticationFailed', self.c.call, refuser, DEVICE, 'Pair')
        self.c.wait_for(changed(refuser, 'Connected', True), mark)
        check(self.c.get(refuser, DEVICE, 'Connected') is False,
              'the link made for a failed pairing goes down again')
        self.c.call(pin_meter, DEVICE, 'Disconnect')

    def cancelled_pairing(self):
        keypad = device_path(KEYPAD)
        self.agent.hold = True
        pairing = self.c.begin(keypad, DEVICE, 'Pair')
        check(spin(lambda: self.agent.asked[-1] == ('RequestPasskey', keypad), 2),
              'the agent is asked')
        self.c.call(keypad, DEVICE, 'CancelPairing')
        expect_error('org.bluez.Error.AuthenticationCanceled', self.c.finish, pairing)
        check(spin(lambda: self.agent.asked[-1] == ('Cancel', ''), 2), 'Agent1.Cancel')
        check(self.c.get(keypad, DEVICE, 'Paired') is False, 'not paired')
        check(self.c.get(keypad, DEVICE, 'Connected') is False, 'the link made to pair is gone')
        expect_error('org.bluez.Error.DoesNotExist', self.c.call, keypad, DEVICE, 'CancelPairing')
        self.agent.hold = False

    def cuff_indications(self):
        cuff = device_path(CUFF)
        asked = len(self.agent.asked)
        self.c.call(cuff, DEVICE, 'Pair')                  # "none": no agent question
        check(len(self.agent.asked) == asked, 'just works')
        paths = self.connect(CUFF)
        indications, feature = paths[full('2a35')], paths[full('2a49')]
        mark = self.c.mark()
        self.c.call(indications, CHARACTERISTIC, 'StartNotify')
        settle(0.5)
        got = [v for _, v in self.c.values(mark, [indications])]
        check(got == CUFF_READINGS, 'each reading once, in order: %s' % got)
        mark = self.c.mark()
        self.c.call(indications, CHARACTERISTIC, 'StopNotify')
        self.c.call(indications, CHARACTERISTIC, 'StartNotify')
        settle(0.2)
        check(not self.c.values(mark, [indications]), 'sent once per connection')
        check(self.c.call(feature, CHARACTERISTIC, 'ReadValue', {}, signature='a{sv}')
              == b'\x01\x00', 'ReadValue')
        expect_error('org.bluez.Error.NotPermitted', self.c.call, indications, CHARACTERISTIC,
                     'ReadValue', {}, signature='a{sv}')
        expect_error('org.bluez.Error.NotSupported', self.c.call, feature, CHARACTERISTIC,
                     'StartNotify')
        expect_error('org.bluez.Error.NotSupported', self.write, feature, b'\x00')
        # bluetoothd announces Value after a read too, not only on notifications.
        mark = self.c.mark()
        self.c.call(feature, CHARACTERISTIC, 'ReadValue', {}, signature='a{sv}')
        check(self.c.values(mark, [feature]) == [(feature, b'\x01\x00')], 'Value after read')
        # The control interface can push any payload.
        mark = self.c.mark()
        self.c.control('SendNotification', CUFF, '2A35', dbus.ByteArray(b'\x42'),
                       signature='ssay')
        self.c.wait_for(changed(indications, 'Value', b'\x42'), mark)

    def disconnect_mid_transfer(self):
        dropper = device_path(DROPPER)
        paths = self.connect(DROPPER)
        for uuid in ('2a18', '2a34', '2a52'):
            self.c.call(paths[full(uuid)], CHARACTERISTIC, 'StartNotify')
        mark = self.c.mark()
        self.write(paths[full('2a52')], b'\x01\x01')
        self.c.wait_for(changed(dropper, 'Connected', False), mark)
        settle(0.2)
        got = [v for _, v in self.c.values(mark, paths.values())]
        check(got == [M1, C1, M2], 'three notifications, then the link drops: %s' % got)
        check(any(removed(paths[full('2a52')])(e) for e in self.c.since(mark)),
              'GATT objects removed')

    def silent_device(self):
        paths = self.connect(SILENT)
        for uuid in ('2a18', '2a34', '2a52'):
            self.c.call(paths[full(uuid)], CHARACTERISTIC, 'StartNotify')
        mark = self.c.mark()
        self.write(paths[full('2a52')], b'\x01\x01')
        settle(0.5)
        check(not self.c.values(mark, paths.values()), 'a silent device sends nothing')
        self.c.call(device_path(SILENT), DEVICE, 'Disconnect')

    def connect_faults(self):
        slow = device_path(SLOW)
        started = time.monotonic()
        expect_error('org.freedesktop.DBus.Error.NoReply', self.c.call, slow, DEVICE, 'Connect',
                     timeout=1.0)
        check(time.monotonic() - started >= 0.9, 'the client timed out')
        check(self.c.get(slow, DEVICE, 'Connected') is False, 'never connected')
        expect_error('org.bluez.Error.InProgress', self.c.call, slow, DEVICE, 'Connect')
        self.c.call(slow, DEVICE, 'Disconnect')             # cancels the pending attempt
        error = expect_error('org.bluez.Error.Failed', self.c.call, device_path(BROKEN), DEVICE,
                             'Connect')
        check(error.get_dbus_message() == 'le-connection-abort-by-local', error)

    def dropped_and_paired_devices(self):
        meter = device_path(METER)
        mark = self.c.mark()
        self.c.control('DropConnection', METER)
        self.c.wait_for(changed(meter, 'Connected', False), mark)
        mark = self.c.mark()
        self.c.control('SetAdvertising', METER, False)
        self.c.wait_for(invalidated(meter, 'RSSI'), mark)
        settle(1.4)
        objects = self.c.managed_objects()
        check(meter in objects and 'RSSI' not in objects[meter][DEVICE],
              'a paired device stays, without RSSI')
        check(not any(removed(meter)(e) for e in self.c.since(mark)), 'not removed')
        # A device that does not advertise cannot be reached: the attempt ends after
        # connect_timeout (1 s in this scenario)...
        started = time.monotonic()
        error = expect_error('org.bluez.Error.Failed', self.c.call, meter, DEVICE, 'Connect')
        check(error.get_dbus_message() == 'le-connection-abort-by-local', error)
        check(0.9 < time.monotonic() - started < 2.5, 'gave up after connect_timeout')
        # ...unless it starts advertising meanwhile.
        connecting = self.c.begin(meter, DEVICE, 'Connect')
        settle(0.2)
        self.c.control('SetAdvertising', METER, True)
        self.c.finish(connecting)
        check(self.c.get(meter, DEVICE, 'Connected') is True, 'connected once it advertised')

    def powered_off(self):
        cuff = device_path(CUFF)
        self.c.call(cuff, DEVICE, 'Connect')
        mark = self.c.mark()
        self.c.set(ADAPTER_PATH, ADAPTER, 'Powered', dbus.Boolean(False))
        self.c.wait_for(changed(cuff, 'Connected', False), mark)
        self.c.wait_for(changed(device_path(METER), 'Connected', False), mark)
        self.c.wait_for(changed(ADAPTER_PATH, 'Powered', False), mark)
        self.c.wait_for(changed(ADAPTER_PATH, 'Discovering', False), mark)
        error = expect_error('org.bluez.Error.NotReady', self.c.call, ADAPTER_PATH, ADAPTER,
                             'StartDiscovery')
        check(error.get_dbus_message() == 'Resource Not Ready', error)
        expect_error('org.bluez.Error.NotReady', self.c.call, cuff, DEVICE, 'Connect')
        # Unpaired devices are no longer seen: they go after the temporary timeout.
        self.c.wait_for(removed(device_path(HEART)), mark, timeout=3)
        mark = self.c.mark()
        self.c.set(ADAPTER_PATH, ADAPTER, 'Powered', dbus.Boolean(True))
        self.c.wait_for(changed(ADAPTER_PATH, 'Powered', True), mark)
        self.c.call(ADAPTER_PATH, ADAPTER, 'StartDiscovery')
        self.c.wait_for(added(device_path(HEART)), mark)
        self.c.call(ADAPTER_PATH, ADAPTER, 'StopDiscovery')
        expect_error('org.bluez.Error.Failed', self.c.call, ADAPTER_PATH, ADAPTER,
                     'StopDiscovery')

    def remove_device(self):
        meter = device_path(METER)
        mark = self.c.mark()
        self.c.call(ADAPTER_PATH, ADAPTER, 'RemoveDevice', dbus.ObjectPath(meter), signature='o')
        self.c.wait_for(removed(meter), mark)
        expect_error('org.bluez.Error.DoesNotExist', self.c.call, ADAPTER_PATH, ADAPTER,
                     'RemoveDevice', dbus.ObjectPath(meter), signature='o')

    def call_log(self):
        calls = self.c.control('Calls')
        for expected in ('Connect dev_00_09_1F_80_00_01', 'Pair dev_00_09_1F_80_00_01',
                         'RegisterAgent bluez /test/agent KeyboardDisplay',
                         'Set hci0 Powered=false', 'StopDiscovery hci0',
                         'RemoveDevice hci0 /org/bluez/hci0/dev_00_09_1F_80_00_01'):
            check(expected in calls, '%r in the call log' % expected)
        self.c.control('ResetCalls')
        check(self.c.control('Calls') == [], 'ResetCalls')

    def powered_off_at_start(self):
        adapter = self.c.managed_objects()[ADAPTER_PATH][ADAPTER]
        check(adapter['Powered'] is False and adapter['PowerState'] == 'off', adapter)
        expect_error('org.bluez.Error.NotReady', self.c.call, ADAPTER_PATH, ADAPTER,
                     'StartDiscovery')
        mark = self.c.mark()
        self.c.set(ADAPTER_PATH, ADAPTER, 'Powered', dbus.Boolean(True))
        self.c.call(ADAPTER_PATH, ADAPTER, 'StartDiscovery')
        self.c.wait_for(added(device_path(METER)), mark)


MAIN_CHECKS = ['startup_objects', 'discovery_with_uuid_filter', 'advertising_rssi_and_removal',
               'connect_and_gatt', 'pairing_with_passkey', 'racp_reports', 'no_records_then_one',
               'pin_and_refused_pairing', 'cancelled_pairing', 'cuff_indications',
               'disconnect_mid_transfer',
               'silent_device', 'connect_faults', 'dropped_and_paired_devices', 'powered_off',
               'remove_device', 'call_log']


def run_checks(processes, client, scenario, name, check_names):
    processes.start_standin(client.address, scenario, name)
    checks = Checks(client)
    try:
        for check_name in check_names:
            started = time.monotonic()
            getattr(checks, check_name)()
            print('ok   %-30s %.2f s' % (check_name, time.monotonic() - started), flush=True)
    except Exception:
        print('FAIL %s; stand-in stderr ends with:\n%s' % (check_name,
                                                            processes.standin_stderr_tail()))
        raise
    code = processes.stop_standin()
    if '--show-log' in sys.argv:
        print(processes.standin_stderr_tail(lines=100000))
    check(code == 0, 'the stand-in exits 0 on SIGTERM (got %s)' % code)
    print('ok   %-30s' % ('%s: clean exit' % name), flush=True)


def main():
    DBusGMainLoop(set_as_default=True)
    with tempfile.TemporaryDirectory(prefix='standin-bluez-') as workdir:
        processes = Processes(workdir)
        try:
            address = processes.start_bus()
            client = Client(address)
            client.address = address
            run_checks(processes, client, SCENARIO, 'main', MAIN_CHECKS)
            client.events.clear()
            run_checks(processes, client, POWERED_OFF_SCENARIO, 'powered-off',
                       ['powered_off_at_start'])
            client.bus.close()
        finally:
            processes.stop_all()
    print('all checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
