#!/usr/bin/python3
"""A stand-in for bluetoothd on a private D-Bus bus, for tests.

It owns the name org.bluez and exports the objects and interfaces that BlueZ documents in
doc/org.bluez.{AgentManager,Adapter,Device,GattService,GattCharacteristic}.rst: one adapter
(hci0), the devices a scenario file describes and, while a device is connected, its GATT
services, characteristics and CCCD descriptors. The devices behave like simple Bluetooth LE
health devices: a glucose meter answers its Record Access Control Point, a cuff indicates its
stored measurements when subscribed. A control interface (org.vitalsnap.StandIn1 at
/org/vitalsnap/standin) lets a test make devices advertise, add stored records, drop links and
read back every org.bluez call received.

Usage:
    /usr/bin/python3 standin_bluez.py --address BUS_ADDRESS --scenario SCENARIO.json

It prints READY on stdout once every object is exported and org.bluez is owned, logs to stderr
only, and exits 0 on SIGTERM or SIGINT (or when the bus goes away). See README.md next to it.

Needs Debian's python3-dbus and python3-gi, nothing else.
"""

import argparse
import collections
import json
import logging
import re
import signal
import sys

import dbus
import dbus.bus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

log = logging.getLogger('standin_bluez')

# --------------------------------------------------------------------------------------------
# Names and paths
# --------------------------------------------------------------------------------------------

BLUEZ_NAME = 'org.bluez'
BLUEZ_PATH = '/org/bluez'
ADAPTER_PATH = '/org/bluez/hci0'

PROPERTIES_IFACE = 'org.freedesktop.DBus.Properties'
INTROSPECTABLE_IFACE = 'org.freedesktop.DBus.Introspectable'
OBJECT_MANAGER_IFACE = 'org.freedesktop.DBus.ObjectManager'
AGENT_MANAGER_IFACE = 'org.bluez.AgentManager1'
AGENT_IFACE = 'org.bluez.Agent1'
ADAPTER_IFACE = 'org.bluez.Adapter1'
DEVICE_IFACE = 'org.bluez.Device1'
SERVICE_IFACE = 'org.bluez.GattService1'
CHARACTERISTIC_IFACE = 'org.bluez.GattCharacteristic1'
DESCRIPTOR_IFACE = 'org.bluez.GattDescriptor1'

CONTROL_PATH = '/org/vitalsnap/standin'
CONTROL_IFACE = 'org.vitalsnap.StandIn1'

BASE_UUID_TAIL = '-0000-1000-8000-00805f9b34fb'

# BlueZ waits this long for an agent to answer (src/agent.c, REQUEST_TIMEOUT).
AGENT_TIMEOUT_S = 60.0

# The first GATT service of a device gets this handle, leaving room below for the Generic
# Access and Generic Attribute services that bluetoothd keeps to itself.
FIRST_SERVICE_HANDLE = 0x000a

# The order in which BlueZ lists characteristic flags (src/gatt-client.c, chrc_props).
CHARACTERISTIC_FLAG_ORDER = ['broadcast', 'read', 'write-without-response', 'write', 'notify',
                             'indicate', 'authenticated-signed-writes', 'extended-properties',
                             'reliable-write', 'writable-auxiliaries']

AGENT_CAPABILITIES = {'DisplayOnly', 'DisplayYesNo', 'KeyboardOnly', 'NoInputNoOutput',
                      'KeyboardDisplay'}

DISCOVERY_FILTER_KEYS = ['UUIDs', 'RSSI', 'Pathloss', 'Transport', 'DuplicateData',
                         'Discoverable', 'Pattern']


def expand_uuid(text):
    """'1808', '0x1808', '00001808' or a full UUID -> the lowercase 128-bit form BlueZ uses."""
    value = str(text).strip().lower()
    if value.startswith('0x'):
        value = value[2:]
    if re.fullmatch(r'[0-9a-f]{4}', value):
        return '0000' + value + BASE_UUID_TAIL
    if re.fullmatch(r'[0-9a-f]{8}', value):
        return value + BASE_UUID_TAIL
    if re.fullmatch(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', value):
        return value
    raise ValueError('not a UUID: %r' % (text,))


MEASUREMENT_UUID = expand_uuid('2a18')   # Glucose Measurement
CONTEXT_UUID = expand_uuid('2a34')       # Glucose Measurement Context
RACP_UUID = expand_uuid('2a52')          # Record Access Control Point
CCCD_UUID = expand_uuid('2902')          # Client Characteristic Configuration


def parse_hex(text):
    """Payload bytes from a hex string; spaces, colons and dashes between bytes are allowed."""
    return bytes.fromhex(re.sub(r'[\s:-]', '', str(text)))


# --------------------------------------------------------------------------------------------
# D-Bus values and errors
# --------------------------------------------------------------------------------------------

def dbus_bool(value):
    return dbus.Boolean(bool(value))


def dbus_strings(items):
    return dbus.Array([dbus.String(item) for item in items], signature='s')


def dbus_bytes(data):
    return dbus.Array([dbus.Byte(b) for b in bytes(data)], signature='y')


def bluez_error(kind, message):
    return dbus.DBusException(message, name='org.bluez.Error.' + kind)


class Err:
    """The errors bluetoothd replies with, with the messages its src/error.c gives them."""

    @staticmethod
    def not_ready():
        return bluez_error('NotReady', 'Resource Not Ready')

    @staticmethod
    def in_progress():
        return bluez_error('InProgress', 'In Progress')

    @staticmethod
    def busy():
        return bluez_error('InProgress', 'Operation already in progress')

    @staticmethod
    def already_exists():
        return bluez_error('AlreadyExists', 'Already Exists')

    @staticmethod
    def does_not_exist():
        return bluez_error('DoesNotExist', 'Does Not Exist')

    @staticmethod
    def not_connected():
        return bluez_error('NotConnected', 'Not Connected')

    @staticmethod
    def not_supported():
        return bluez_error('NotSupported', 'Operation is not supported')

    @staticmethod
    def invalid_args(message='Invalid arguments in method call'):
        return bluez_error('InvalidArguments', message)

    @staticmethod
    def not_permitted(message):
        return bluez_error('NotPermitted', message)

    @staticmethod
    def failed(message):
        return bluez_error('Failed', message)

    @staticmethod
    def auth_failed():
        return bluez_error('AuthenticationFailed', 'Authentication Failed')

    @staticmethod
    def auth_canceled():
        return bluez_error('AuthenticationCanceled', 'Authentication Canceled')

    @staticmethod
    def link_aborted():
        # What bluetoothd reports when an LE connection attempt ends without a link.
        return bluez_error('Failed', 'le-connection-abort-by-local')

    @staticmethod
    def cccd_not_configured():
        # A real meter answers such a write with ATT error 0xfd (CCCD improperly configured).
        return bluez_error('NotPermitted',
                           'Client Characteristic Configuration Descriptor Improperly Configured')


def control_error(kind, message):
    return dbus.DBusException(message, name='org.vitalsnap.StandIn1.Error.' + kind)


# --------------------------------------------------------------------------------------------
# Small helpers: timers, bus clients going away, the call log
# --------------------------------------------------------------------------------------------

class Timer:
    """A one-shot GLib timeout that can be cancelled. Everything that takes time (connecting,
    advertising, notifications) runs on these so the main loop never blocks."""

    def __init__(self, seconds, callback):
        self._callback = callback
        self._id = GLib.timeout_add(max(0, int(round(seconds * 1000))), self._fire)

    def _fire(self):
        self._id = None
        self._callback()
        return False

    def cancel(self):
        if self._id is not None:
            GLib.source_remove(self._id)
            self._id = None


class ClientWatch:
    """Calls back when a bus client (a unique name) disconnects: BlueZ forgets a client's
    discovery session, filter, notify sessions and agent when it leaves the bus."""

    def __init__(self, bus):
        self._callbacks = collections.defaultdict(dict)
        bus.add_signal_receiver(self._owner_changed, signal_name='NameOwnerChanged',
                                dbus_interface='org.freedesktop.DBus',
                                bus_name='org.freedesktop.DBus', path='/org/freedesktop/DBus')

    def watch(self, client, key, callback):
        self._callbacks[str(client)][key] = callback

    def unwatch(self, client, key):
        self._callbacks.get(str(client), {}).pop(key, None)

    def _owner_changed(self, name, old_owner, new_owner):
        if new_owner == '' and name in self._callbacks:
            for callback in list(self._callbacks.pop(name).values()):
                callback()


def render_argument(value):
    """One call argument as the call log writes it."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    if isinstance(value, dbus.Boolean) or isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, dict):
        return ' '.join('%s=%s' % (key, render_argument(value[key])) for key in sorted(value))
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(item, dbus.Byte) for item in value):
            return bytes(int(item) for item in value).hex()
        return ','.join(render_argument(item) for item in value)
    return str(value)


class CallLog:
    """Every org.bluez method call received (and every Properties.Set), one line each:
    '<Member> <last element of the object path>[ <argument>...]'. See README.md."""

    def __init__(self):
        self.entries = []

    def add(self, member, path, *arguments):
        parts = [member, path.rsplit('/', 1)[-1]] + [render_argument(a) for a in arguments]
        entry = ' '.join(part for part in parts if part != '')
        self.entries.append(entry)
        log.info('call: %s', entry)


# --------------------------------------------------------------------------------------------
# Objects with properties, and the object manager at /
# --------------------------------------------------------------------------------------------

class PropertyObject(dbus.service.Object):
    """Base of every org.bluez object: a property store per interface served through
    org.freedesktop.DBus.Properties, PropertiesChanged on each change, and export/unexport
    announced through the object manager (InterfacesAdded/InterfacesRemoved)."""

    def __init__(self, standin, path, interfaces):
        dbus.service.Object.__init__(self)      # not on the bus until export()
        self.standin = standin
        self.path = path
        self.props = {interface: {} for interface in interfaces}
        self.on_bus = False

    # -- export --

    def interfaces_and_properties(self):
        result = dbus.Dictionary({}, signature='sa{sv}')
        for interface, values in self.props.items():
            result[interface] = dbus.Dictionary(values, signature='sv')
        # bluetoothd lists these two on every object too; clients must skip them.
        result[INTROSPECTABLE_IFACE] = dbus.Dictionary({}, signature='sv')
        result[PROPERTIES_IFACE] = dbus.Dictionary({}, signature='sv')
        return result

    def interface_names(self):
        return list(self.props) + [INTROSPECTABLE_IFACE, PROPERTIES_IFACE]

    def export(self):
        if not self.on_bus:
            self.add_to_connection(self.standin.bus, self.path)
            self.on_bus = True
            self.standin.object_manager.announce_added(self)

    def unexport(self):
        if self.on_bus:
            self.on_bus = False
            self.standin.object_manager.announce_removed(self)
            self.remove_from_connection()

    # -- property store --

    def update(self, interface, force=(), **values):
        """Store new values (None removes a property) and emit one PropertiesChanged with what
        changed; names in `force` are announced even when unchanged (a notification repeating
        the last value is still a notification)."""
        store = self.props[interface]
        changed, invalidated = {}, []
        for name, value in values.items():
            if value is None:
                if name in store:
                    del store[name]
                    invalidated.append(name)
            elif name in force or name not in store or store[name] != value:
                store[name] = value
                changed[name] = value
        if self.on_bus and (changed or invalidated):
            self.PropertiesChanged(interface, dbus.Dictionary(changed, signature='sv'),
                                   dbus.Array(invalidated, signature='s'))

    def set_property(self, interface, name, value):
        """Apply a client's Properties.Set; subclasses handle their writable properties."""
        raise dbus.DBusException("Property '%s' is not writable" % name,
                                 name='org.freedesktop.DBus.Error.PropertyReadOnly')

    def _store_for(self, interface):
        if interface not in self.props:
            raise dbus.DBusException("No such interface '%s'" % interface,
                                     name='org.freedesktop.DBus.Error.InvalidArgs')
        return self.props[interface]

    # -- org.freedesktop.DBus.Properties --

    @dbus.service.method(PROPERTIES_IFACE, in_signature='ss', out_signature='v')
    def Get(self, interface, name):
        store = self._store_for(interface)
        if name not in store:
            raise dbus.DBusException("No such property '%s'" % name,
                                     name='org.freedesktop.DBus.Error.InvalidArgs')
        return store[name]

    @dbus.service.method(PROPERTIES_IFACE, in_signature='s', out_signature='a{sv}')
    def GetAll(self, interface):
        return dbus.Dictionary(self._store_for(interface), signature='sv')

    @dbus.service.method(PROPERTIES_IFACE, in_signature='ssv', out_signature='')
    def Set(self, interface, name, value):
        self.standin.calls.add('Set', self.path, '%s=%s' % (name, render_argument(value)))
        store = self._store_for(interface)
        if name not in store:
            raise dbus.DBusException("No such property '%s'" % name,
                                     name='org.freedesktop.DBus.Error.InvalidArgs')
        self.set_property(interface, name, value)

    @dbus.service.signal(PROPERTIES_IFACE, signature='sa{sv}as')
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class ObjectManagerRoot(dbus.service.Object):
    """The object manager at / that BlueZ clients start from."""

    def __init__(self, bus):
        dbus.service.Object.__init__(self, bus, '/')
        self.managed = {}       # path -> PropertyObject, in export order

    def announce_added(self, obj):
        self.managed[obj.path] = obj
        self.InterfacesAdded(dbus.ObjectPath(obj.path), obj.interfaces_and_properties())

    def announce_removed(self, obj):
        self.managed.pop(obj.path, None)
        self.InterfacesRemoved(dbus.ObjectPath(obj.path), dbus_strings(obj.interface_names()))

    @dbus.service.method(OBJECT_MANAGER_IFACE, in_signature='', out_signature='a{oa{sa{sv}}}')
    def GetManagedObjects(self):
        return dbus.Dictionary(
            {dbus.ObjectPath(path): obj.interfaces_and_properties()
             for path, obj in self.managed.items()},
            signature='oa{sa{sv}}')

    @dbus.service.signal(OBJECT_MANAGER_IFACE, signature='oa{sa{sv}}')
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.signal(OBJECT_MANAGER_IFACE, signature='oas')
    def InterfacesRemoved(self, path, interfaces):
        pass


# --------------------------------------------------------------------------------------------
# /org/bluez: AgentManager1
# --------------------------------------------------------------------------------------------

class AgentManager(PropertyObject):
    """Keeps the agents clients register. As in bluetoothd, pairing asks the agent of the
    client that called Pair, or else the default agent."""

    def __init__(self, standin):
        PropertyObject.__init__(self, standin, BLUEZ_PATH, [AGENT_MANAGER_IFACE])
        self.agents = {}            # client unique name -> agent object path
        self.default_client = None

    def agent_for(self, client):
        """(bus name, object path) of the agent to ask for a pairing started by `client`."""
        if client in self.agents:
            return client, self.agents[client]
        if self.default_client in self.agents:
            return self.default_client, self.agents[self.default_client]
        return None

    def _forget(self, client):
        self.agents.pop(client, None)
        if self.default_client == client:
            self.default_client = None

    @dbus.service.method(AGENT_MANAGER_IFACE, in_signature='os', out_signature='',
                         sender_keyword='sender')
    def RegisterAgent(self, agent, capability, sender=None):
        self.standin.calls.add('RegisterAgent', self.path, agent, capability)
        if capability not in AGENT_CAPABILITIES and capability != '':
            raise Err.invalid_args()
        if sender in self.agents:
            raise Err.already_exists()
        self.agents[sender] = str(agent)
        self.standin.clients.watch(sender, 'agent', lambda: self._forget(sender))

    @dbus.service.method(AGENT_MANAGER_IFACE, in_signature='o', out_signature='',
                         sender_keyword='sender')
    def UnregisterAgent(self, agent, sender=None):
        self.standin.calls.add('UnregisterAgent', self.path, agent)
        if self.agents.get(sender) != str(agent):
            raise Err.does_not_exist()
        self._forget(sender)
        self.standin.clients.unwatch(sender, 'agent')

    @dbus.service.method(AGENT_MANAGER_IFACE, in_signature='o', out_signature='',
                         sender_keyword='sender')
    def RequestDefaultAgent(self, agent, sender=None):
        self.standin.calls.add('RequestDefaultAgent', self.path, agent)
        if self.agents.get(sender) != str(agent):
            raise Err.does_not_exist()
        self.default_client = sender


# --------------------------------------------------------------------------------------------
# /org/bluez/hci0: Adapter1
# --------------------------------------------------------------------------------------------

class DiscoveryFilter:
    """One client's SetDiscoveryFilter arguments. As in bluetoothd, a device is reported when
    the filter of at least one discovering client lets it through."""

    def __init__(self, arguments):
        self.uuids = set()
        self.rssi = None
        self.pathloss = None
        self.transport = 'auto'
        self.duplicate_data = True
        self.pattern = ''
        for key, value in arguments.items():
            if key not in DISCOVERY_FILTER_KEYS:
                raise Err.invalid_args()
            try:
                if key == 'UUIDs':
                    self.uuids = {expand_uuid(uuid) for uuid in value}
                elif key == 'RSSI':
                    self.rssi = int(value)
                elif key == 'Pathloss':
                    self.pathloss = int(value)
                elif key == 'Transport':
                    if value not in ('auto', 'bredr', 'le'):
                        raise ValueError(value)
                    self.transport = str(value)
                elif key == 'DuplicateData':
                    self.duplicate_data = bool(value)
                elif key == 'Pattern':
                    self.pattern = str(value)
            except (TypeError, ValueError):
                raise Err.invalid_args()
        if self.rssi is not None and self.pathloss is not None:
            raise Err.invalid_args()

    def accepts(self, device):
        if self.transport == 'bredr':              # every stand-in device is LE only
            return False
        if self.uuids and not self.uuids & set(device.config['advertised_uuids']):
            return False
        if self.rssi is not None and device.config['rssi'] < self.rssi:
            return False
        if self.pattern and not (device.config['address'].startswith(self.pattern)
                                 or (device.config['name'] or '').startswith(self.pattern)):
            return False
        return True


class Adapter(PropertyObject):
    """hci0. Discovery is kept per client like bluetoothd does: each client starts and stops
    its own session, and Discovering is true while any session is open."""

    def __init__(self, standin, config):
        PropertyObject.__init__(self, standin, ADAPTER_PATH, [ADAPTER_IFACE])
        self.powered = config['powered']
        self.discovering = False
        self.sessions = set()        # clients with a discovery session
        self.filters = {}            # client -> DiscoveryFilter
        self.props[ADAPTER_IFACE] = {
            'Address': dbus.String(config['address']),
            'AddressType': dbus.String('public'),
            'Name': dbus.String(config['name']),
            'Alias': dbus.String(config['name']),
            'Class': dbus.UInt32(0),
            'Powered': dbus_bool(self.powered),
            'PowerState': dbus.String('on' if self.powered else 'off'),
            'Discoverable': dbus_bool(False),
            'DiscoverableTimeout': dbus.UInt32(180),
            'Pairable': dbus_bool(True),
            'PairableTimeout': dbus.UInt32(0),
            'Discovering': dbus_bool(False),
            'UUIDs': dbus_strings([expand_uuid('1800'), expand_uuid('1801'),
                                   expand_uuid('180a')]),
            'Modalias': dbus.String('usb:v1D6Bp0246d0548'),
            'Roles': dbus_strings(['central', 'peripheral']),
        }

    def filters_accept(self, device):
        return any(self.filters.get(client) is None or self.filters[client].accepts(device)
                   for client in self.sessions)

    def refresh_discovery(self):
        """Recompute Discovering and let every device re-check whether it is being seen."""
        discovering = self.powered and bool(self.sessions)
        if discovering != self.discovering:
            self.discovering = discovering
            self.update(ADAPTER_IFACE, Discovering=dbus_bool(discovering))
        for device in self.standin.devices:
            device.refresh_visibility()

    def _end_session(self, client):
        self.sessions.discard(client)
        self.filters.pop(client, None)
        self.standin.clients.unwatch(client, 'discovery')
        self.refresh_discovery()

    def set_powered(self, on):
        if on == self.powered:
            return
        log.info('adapter powered %s', 'on' if on else 'off')
        if not on:
            # Powering off takes every link down and ends every discovery session.
            for device in self.standin.devices:
                device.power_lost()
            for client in list(self.sessions):
                self.standin.clients.unwatch(client, 'discovery')
            self.sessions.clear()
            self.filters.clear()
        self.powered = on
        self.update(ADAPTER_IFACE, Powered=dbus_bool(on),
                    PowerState=dbus.String('on' if on else 'off'))
        self.refresh_discovery()

    def set_property(self, interface, name, value):
        if name in ('Powered', 'Discoverable', 'Pairable'):
            if not isinstance(value, dbus.Boolean):
                raise Err.invalid_args()
            if name == 'Powered':
                self.set_powered(bool(value))
            else:
                self.update(ADAPTER_IFACE, **{name: dbus_bool(value)})
        elif name == 'Alias':
            alias = str(value) or str(self.props[ADAPTER_IFACE]['Name'])
            self.update(ADAPTER_IFACE, Alias=dbus.String(alias))
        else:
            PropertyObject.set_property(self, interface, name, value)

    @dbus.service.method(ADAPTER_IFACE, in_signature='', out_signature='',
                         sender_keyword='sender')
    def StartDiscovery(self, sender=None):
        self.standin.calls.add('StartDiscovery', self.path)
        if not self.powered:
            raise Err.not_ready()
        if sender in self.sessions:
            raise Err.busy()
        self.sessions.add(sender)
        self.standin.clients.watch(sender, 'discovery', lambda: self._end_session(sender))
        self.refresh_discovery()

    @dbus.service.method(ADAPTER_IFACE, in_signature='', out_signature='',
                         sender_keyword='sender')
    def StopDiscovery(self, sender=None):
        self.standin.calls.add('StopDiscovery', self.path)
        if not self.powered:
            raise Err.not_ready()
        if sender not in self.sessions:
            raise Err.failed('No discovery started')
        self._end_session(sender)

    @dbus.service.method(ADAPTER_IFACE, in_signature='a{sv}', out_signature='',
                         sender_keyword='sender')
    def SetDiscoveryFilter(self, arguments, sender=None):
        self.standin.calls.add('SetDiscoveryFilter', self.path, arguments)
        if not self.powered:
            raise Err.not_ready()
        if arguments:
            self.filters[sender] = DiscoveryFilter(arguments)
        else:
            self.filters.pop(sender, None)     # an empty filter clears the client's filter
        self.refresh_discovery()

    @dbus.service.method(ADAPTER_IFACE, in_signature='', out_signature='as')
    def GetDiscoveryFilters(self):
        self.standin.calls.add('GetDiscoveryFilters', self.path)
        return dbus_strings(DISCOVERY_FILTER_KEYS)

    @dbus.service.method(ADAPTER_IFACE, in_signature='o', out_signature='')
    def RemoveDevice(self, device_path):
        self.standin.calls.add('RemoveDevice', self.path, device_path)
        device = self.standin.device_by_path(str(device_path))
        if device is None or not device.on_bus:
            raise Err.does_not_exist()
        device.remove()


# --------------------------------------------------------------------------------------------
# GATT objects (exported while their device is connected)
# --------------------------------------------------------------------------------------------

class GattService(PropertyObject):
    def __init__(self, device, handle, config):
        PropertyObject.__init__(self, device.standin, '%s/service%04x' % (device.path, handle),
                                [SERVICE_IFACE])
        self.device = device
        self.handle = handle
        self.characteristics = []
        self.props[SERVICE_IFACE] = {
            'UUID': dbus.String(config['uuid']),
            'Primary': dbus_bool(True),
            'Device': dbus.ObjectPath(device.path),
            'Includes': dbus.Array([], signature='o'),
        }

    def find(self, uuid):
        return next((c for c in self.characteristics if c.uuid == uuid), None)


class GattCharacteristic(PropertyObject):
    """A remote characteristic. Notifications and indications reach clients the way BlueZ
    delivers them: PropertiesChanged on this path with {'Value': ay}."""

    def __init__(self, service, handle, config):
        PropertyObject.__init__(self, service.standin, '%s/char%04x' % (service.path, handle),
                                [CHARACTERISTIC_IFACE])
        self.service = service
        self.device = service.device
        self.handle = handle
        self.config = config
        self.uuid = config['uuid']
        self.flags = config['flags']
        self.value = config['value']
        self.notify_clients = set()     # clients with a notify session (StartNotify)
        self.subscribed_before = False  # on_subscribe payloads go out once per connection
        self.cccd = None
        values = {
            'UUID': dbus.String(self.uuid),
            'Service': dbus.ObjectPath(service.path),
            'Value': dbus_bytes(self.value),
            'Flags': dbus_strings(self.flags),
            'MTU': dbus.UInt16(247),
        }
        if self.can_notify:
            values['Notifying'] = dbus_bool(False)
        self.props[CHARACTERISTIC_IFACE] = values

    @property
    def can_notify(self):
        return 'notify' in self.flags or 'indicate' in self.flags

    @property
    def notifying(self):
        return bool(self.notify_clients)

    def deliver(self, payload):
        """One notification or indication from the device."""
        self.update(CHARACTERISTIC_IFACE, force=('Value',), Value=dbus_bytes(payload))

    def _end_notify_session(self, client):
        self.notify_clients.discard(client)
        self.standin.clients.unwatch(client, self.path)
        if not self.notify_clients:
            self.update(CHARACTERISTIC_IFACE, Notifying=dbus_bool(False))

    @dbus.service.method(CHARACTERISTIC_IFACE, in_signature='a{sv}', out_signature='ay')
    def ReadValue(self, options):
        self.standin.calls.add('ReadValue', self.path)
        if 'read' not in self.flags:
            raise Err.not_permitted('Read not permitted')
        offset = int(options.get('offset', 0))
        if offset > len(self.value):
            raise Err.invalid_args('Invalid offset')
        # bluetoothd caches what it read and announces Value on every read, so a client that
        # takes each Value change for a notification sees reads too.
        self.update(CHARACTERISTIC_IFACE, force=('Value',), Value=dbus_bytes(self.value))
        return dbus_bytes(self.value[offset:])

    @dbus.service.method(CHARACTERISTIC_IFACE, in_signature='aya{sv}', out_signature='',
                         byte_arrays=True)
    def WriteValue(self, value, options):
        self.standin.calls.add('WriteValue', self.path, bytes(value))
        if 'write' not in self.flags and 'write-without-response' not in self.flags:
            raise Err.not_supported()
        if self.config['racp']:
            self.device.racp_write(self, bytes(value))

    @dbus.service.method(CHARACTERISTIC_IFACE, in_signature='', out_signature='',
                         sender_keyword='sender')
    def StartNotify(self, sender=None):
        self.standin.calls.add('StartNotify', self.path)
        if not self.can_notify:
            raise Err.not_supported()
        if sender in self.notify_clients:
            return                       # recent bluetoothd answers a repeat with success
        self.notify_clients.add(sender)
        self.standin.clients.watch(sender, self.path, lambda: self._end_notify_session(sender))
        self.update(CHARACTERISTIC_IFACE, Notifying=dbus_bool(True))
        if self.config['on_subscribe'] and not self.subscribed_before:
            # Like a cuff: once subscribed it sends what it has, in order, after the reply.
            self.subscribed_before = True
            for payload in self.config['on_subscribe']:
                self.device.send(self, payload)

    @dbus.service.method(CHARACTERISTIC_IFACE, in_signature='', out_signature='',
                         sender_keyword='sender')
    def StopNotify(self, sender=None):
        self.standin.calls.add('StopNotify', self.path)
        if sender not in self.notify_clients:
            raise Err.failed('No notify session started')
        self._end_notify_session(sender)


class GattDescriptor(PropertyObject):
    """The Client Characteristic Configuration descriptor bluetoothd exports under each
    characteristic that can notify or indicate. Clients use StartNotify instead of writing it."""

    def __init__(self, characteristic, handle):
        PropertyObject.__init__(self, characteristic.standin,
                                '%s/desc%04x' % (characteristic.path, handle), [DESCRIPTOR_IFACE])
        self.characteristic = characteristic
        self.props[DESCRIPTOR_IFACE] = {
            'UUID': dbus.String(CCCD_UUID),
            'Characteristic': dbus.ObjectPath(characteristic.path),
            'Value': dbus_bytes(b''),
        }

    def _configuration(self):
        chrc = self.characteristic
        if not chrc.notifying:
            return b'\x00\x00'
        return b'\x01\x00' if 'notify' in chrc.flags else b'\x02\x00'

    @dbus.service.method(DESCRIPTOR_IFACE, in_signature='a{sv}', out_signature='ay')
    def ReadValue(self, options):
        self.standin.calls.add('ReadValue', self.path)
        value = self._configuration()
        self.update(DESCRIPTOR_IFACE, Value=dbus_bytes(value))
        return dbus_bytes(value)

    @dbus.service.method(DESCRIPTOR_IFACE, in_signature='aya{sv}', out_signature='',
                         byte_arrays=True)
    def WriteValue(self, value, options):
        self.standin.calls.add('WriteValue', self.path, bytes(value))
        raise Err.not_permitted('Write not permitted')


# --------------------------------------------------------------------------------------------
# The glucose Record Access Control Point
# --------------------------------------------------------------------------------------------

# Op codes, operators and response codes of the Glucose Profile's RACP.
RACP_REPORT, RACP_DELETE, RACP_ABORT, RACP_COUNT = 0x01, 0x02, 0x03, 0x04
RACP_COUNT_RESPONSE, RACP_RESPONSE = 0x05, 0x06
OP_NULL, OP_ALL, OP_LE, OP_GE, OP_RANGE, OP_FIRST, OP_LAST = range(7)
FILTER_SEQUENCE_NUMBER = 0x01
R_SUCCESS, R_OPCODE_NOT_SUPPORTED, R_INVALID_OPERATOR = 0x01, 0x02, 0x03
R_INVALID_OPERAND, R_NO_RECORDS, R_OPERAND_NOT_SUPPORTED = 0x05, 0x06, 0x09


def sequence_number(measurement):
    """A glucose measurement's sequence number: little-endian u16 after the flags byte."""
    return int.from_bytes(measurement[1:3], 'little') if len(measurement) >= 3 else 0


def racp_response(opcode, code):
    return ('racp', bytes([RACP_RESPONSE, OP_NULL, opcode, code]))


def racp_select(operator, operand, records):
    """The records an operator and operand pick, or an RACP response code when they are bad."""
    if operator == OP_ALL or operator == OP_FIRST or operator == OP_LAST:
        if operand:
            return R_INVALID_OPERAND
        if operator == OP_ALL:
            return list(records)
        return records[:1] if operator == OP_FIRST else records[-1:]
    if operator in (OP_LE, OP_GE, OP_RANGE):
        need = 5 if operator == OP_RANGE else 3
        if len(operand) != need:
            return R_INVALID_OPERAND
        if operand[0] != FILTER_SEQUENCE_NUMBER:
            return R_OPERAND_NOT_SUPPORTED      # user facing time filters are not offered
        low = int.from_bytes(operand[1:3], 'little')
        if operator == OP_LE:
            return [r for r in records if sequence_number(r[0]) <= low]
        if operator == OP_GE:
            return [r for r in records if sequence_number(r[0]) >= low]
        high = int.from_bytes(operand[3:5], 'little')
        return [r for r in records if low <= sequence_number(r[0]) <= high]
    return R_INVALID_OPERATOR                     # the null operator or a reserved one


def racp_plan(request, records):
    """What a meter sends for one RACP write: a list of (characteristic role, payload) with
    roles 'measurement', 'context' and 'racp'. `records` are (measurement, context) pairs."""
    opcode, operator, operand = request[0], request[1] if len(request) > 1 else None, request[2:]
    if opcode == RACP_ABORT:
        if operator != OP_NULL or operand:
            return [racp_response(opcode, R_INVALID_OPERATOR)]
        return [racp_response(opcode, R_SUCCESS)]
    if opcode not in (RACP_REPORT, RACP_COUNT):     # RACP_DELETE included: meters refuse it
        return [racp_response(opcode, R_OPCODE_NOT_SUPPORTED)]
    if operator is None:
        return [racp_response(opcode, R_INVALID_OPERATOR)]
    selected = racp_select(operator, operand, records)
    if isinstance(selected, int):
        return [racp_response(opcode, selected)]
    if opcode == RACP_COUNT:
        count = len(selected).to_bytes(2, 'little')
        return [('racp', bytes([RACP_COUNT_RESPONSE, OP_NULL]) + count)]
    if not selected:
        return [racp_response(opcode, R_NO_RECORDS)]
    plan = []
    for measurement, context in selected:
        plan.append(('measurement', measurement))
        if context:
            plan.append(('context', context))
    return plan + [racp_response(opcode, R_SUCCESS)]


# --------------------------------------------------------------------------------------------
# Devices
# --------------------------------------------------------------------------------------------

class NotificationQueue:
    """A device's outgoing notifications, sent one at a time a short gap apart so that order
    is kept and the main loop stays free to answer calls in between."""

    def __init__(self, device, gap_s):
        self.device = device
        self.gap_s = gap_s
        self.items = collections.deque()      # (characteristic, payload, tag)
        self.timer = None

    def push(self, characteristic, payload, tag=None):
        self.items.append((characteristic, bytes(payload), tag))
        if self.timer is None:
            self.timer = Timer(self.gap_s, self._send_one)

    def pending(self, tag):
        return any(item[2] == tag for item in self.items)

    def drop(self, tag):
        self.items = collections.deque(item for item in self.items if item[2] != tag)

    def clear(self):
        self.items.clear()
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _send_one(self):
        self.timer = None
        if not self.items:
            return
        characteristic, payload, _ = self.items.popleft()
        if self.items:
            # Scheduled before delivering: delivering may end the link and clear the queue.
            self.timer = Timer(self.gap_s, self._send_one)
        self.device.deliver(characteristic, payload)


class PairingAttempt:
    def __init__(self, client, reply, error):
        self.client = client
        self.reply = reply
        self.error = error
        self.made_link = False     # the link was brought up for this pairing
        self.agent = None          # (bus name, path) once the agent has been asked
        self.agent_call = None


class Device(PropertyObject):
    """One remote LE device of the scenario, at /org/bluez/hci0/dev_XX_XX_XX_XX_XX_XX.

    It is exported while it is being seen (advertising during discovery), connected, paired,
    or for `temporary_timeout` seconds after it was last seen, as bluetoothd keeps temporary
    devices for a while (30 s by default there)."""

    def __init__(self, standin, config):
        PropertyObject.__init__(self, standin,
                                '%s/dev_%s' % (ADAPTER_PATH, config['address'].replace(':', '_')),
                                [DEVICE_IFACE])
        self.config = config
        self.timing = standin.timing
        self.adapter = standin.adapter
        self.advertising = config['advertising']
        self.stored_records = list(config['stored_records'])
        self.paired = False
        self.connected = False
        self.connect_done = None       # callback while a connection attempt is under way
        self.connect_timer = None
        self.awaiting_advertising = False  # connecting to a device that does not advertise
        self.pairing = None            # PairingAttempt while Pair is under way
        self.services = []             # exported GattService objects while connected
        self.notifications = NotificationQueue(self, self.timing['notification_interval'])
        self.delivered = 0             # notifications delivered on this link (for the fault)
        self.advert_timer = None       # runs while the device is being seen
        self.removal_timer = None
        self.rssi_step = 0
        self._reset_properties(paired=config['paired'])

    def _reset_properties(self, paired):
        config = self.config
        self.paired = paired
        values = {
            'Address': dbus.String(config['address']),
            'AddressType': dbus.String(config['address_type']),
            'Alias': dbus.String(config['name'] or config['address'].replace(':', '-')),
            'Paired': dbus_bool(paired),
            'Bonded': dbus_bool(paired),
            'Trusted': dbus_bool(False),
            'Blocked': dbus_bool(False),
            'LegacyPairing': dbus_bool(False),
            'Connected': dbus_bool(False),
            'ServicesResolved': dbus_bool(False),
            'UUIDs': dbus_strings(config['advertised_uuids']),
            'Adapter': dbus.ObjectPath(ADAPTER_PATH),
        }
        if config['name']:
            values['Name'] = dbus.String(config['name'])
        self.props[DEVICE_IFACE] = values

    def start(self):
        """Paired devices are known from the start, as bluetoothd loads them from storage."""
        if self.paired:
            self.export()

    # -- being seen --

    def set_advertising(self, on):
        self.advertising = on
        if on and self.awaiting_advertising:
            # The controller was waiting to see the device: now it connects.
            self.awaiting_advertising = False
            self.connect_timer.cancel()
            self.connect_timer = Timer(self.timing['connect_delay'], self._connect_attempt_over)
        self.refresh_visibility()

    def refresh_visibility(self):
        """Start or stop the advertising reports after a change to this device's advertising,
        to discovery, to the discovery filters or to the adapter's power."""
        seen = (self.advertising and self.adapter.powered and self.adapter.discovering
                and self.adapter.filters_accept(self))
        if seen and self.advert_timer is None:
            self._cancel_removal()
            self.advert_timer = Timer(0, self._advertisement)
        elif not seen and self.advert_timer is not None:
            self.advert_timer.cancel()
            self.advert_timer = None
            if self.on_bus:
                self.update(DEVICE_IFACE, RSSI=None)     # bluetoothd invalidates a stale RSSI
            self._schedule_removal_if_temporary()

    def _advertisement(self):
        """One advertising report: the device appears, or its RSSI moves by one dB (each report
        changes it, as with DuplicateData, so clients see a steady stream of updates)."""
        rssi = dbus.Int16(self.config['rssi'] - self.rssi_step)
        self.rssi_step = 1 - self.rssi_step
        if self.on_bus:
            self.update(DEVICE_IFACE, RSSI=rssi)
        else:
            self.props[DEVICE_IFACE]['RSSI'] = rssi
            log.info('found %s', self.config['address'])
            self.export()
        self.advert_timer = Timer(self.timing['advertise_interval'], self._advertisement)

    def _schedule_removal_if_temporary(self):
        temporary = (self.on_bus and not self.paired and not self.connected
                     and self.connect_done is None and self.pairing is None
                     and self.advert_timer is None)
        if temporary and self.removal_timer is None:
            self.removal_timer = Timer(self.timing['temporary_timeout'], self._removal_due)

    def _cancel_removal(self):
        if self.removal_timer is not None:
            self.removal_timer.cancel()
            self.removal_timer = None

    def _removal_due(self):
        self.removal_timer = None
        still_temporary = (not self.paired and not self.connected and self.connect_done is None
                           and self.pairing is None and self.advert_timer is None)
        if still_temporary and self.on_bus:
            log.info('%s not seen for a while: removed', self.config['address'])
            self.remove()

    def remove(self):
        """Forget the device (RemoveDevice, or a temporary one not seen for a while). If it is
        still advertising during discovery it comes back, unpaired, with the next report."""
        self.power_lost('device removed')
        self._cancel_removal()
        self.unexport()
        self._reset_properties(paired=False)

    # -- the link --

    def _start_connecting(self, done):
        """Begin a connection attempt; done(error or None) runs when the link is up with its
        services resolved, or when the attempt fails."""
        self._cancel_removal()
        self.connect_done = done
        if self.config['connect_fault'] == 'timeout':
            log.info('%s does not answer the connection attempt', self.config['address'])
            return                       # no completion is ever scheduled
        if not self.advertising:
            # An LE link can only be made to a device that advertises: the controller waits
            # for it, then gives up after its connection timeout.
            log.info('%s is not advertising: waiting for it', self.config['address'])
            self.awaiting_advertising = True
            self.connect_timer = Timer(self.timing['connect_timeout'], self._connect_gave_up)
            return
        self.connect_timer = Timer(self.timing['connect_delay'], self._connect_attempt_over)

    def _connect_gave_up(self):
        log.info('%s never showed up: connection attempt over', self.config['address'])
        self.awaiting_advertising = False
        self.connect_timer = None
        self._abort_connecting()

    def _connect_attempt_over(self):
        done, self.connect_done, self.connect_timer = self.connect_done, None, None
        if self.config['connect_fault'] == 'fail':
            self._schedule_removal_if_temporary()
            done(Err.link_aborted())
            return
        self._link_up()
        done(None)

    def _abort_connecting(self):
        if self.connect_done is not None:
            done, self.connect_done = self.connect_done, None
            self.awaiting_advertising = False
            if self.connect_timer is not None:
                self.connect_timer.cancel()
                self.connect_timer = None
            self._schedule_removal_if_temporary()
            done(Err.link_aborted())

    def _link_up(self):
        log.info('%s connected', self.config['address'])
        self.connected = True
        self.delivered = 0
        self.update(DEVICE_IFACE, Connected=dbus_bool(True))
        self._export_gatt()
        uuids = list(self.config['advertised_uuids'])
        uuids += [s['uuid'] for s in self.config['services'] if s['uuid'] not in uuids]
        self.update(DEVICE_IFACE, UUIDs=dbus_strings(sorted(uuids)),
                    ServicesResolved=dbus_bool(True))

    def drop_link(self, why):
        """The link went down: asked by the client, by the device itself, or by power off."""
        if not self.connected:
            return
        log.info('%s disconnected (%s)', self.config['address'], why)
        self.notifications.clear()
        self._unexport_gatt()
        self.update(DEVICE_IFACE, ServicesResolved=dbus_bool(False))
        self.connected = False
        self.update(DEVICE_IFACE, Connected=dbus_bool(False))
        if self.pairing is not None:
            self._finish_pairing(self.pairing, Err.auth_canceled())
        self._schedule_removal_if_temporary()

    def power_lost(self, why='adapter powered off'):
        """The adapter went off (or the device is forgotten): every attempt and the link end."""
        if self.pairing is not None:
            self._finish_pairing(self.pairing, Err.auth_canceled())
        self._abort_connecting()
        self.drop_link(why)

    def _export_gatt(self):
        """Build the GATT objects from the scenario with increasing handles, BlueZ style:
        serviceXXXX, then charYYYY (declaration handle; the value follows) and its CCCD."""
        handle = FIRST_SERVICE_HANDLE
        for service_config in self.config['services']:
            service = GattService(self, handle, service_config)
            handle += 1
            for characteristic_config in service_config['characteristics']:
                characteristic = GattCharacteristic(service, handle, characteristic_config)
                handle += 2
                if characteristic.can_notify:
                    characteristic.cccd = GattDescriptor(characteristic, handle)
                    handle += 1
                service.characteristics.append(characteristic)
            self.services.append(service)
        for service in self.services:
            service.export()
            for characteristic in service.characteristics:
                characteristic.export()
                if characteristic.cccd is not None:
                    characteristic.cccd.export()

    def _unexport_gatt(self):
        # Children first, as bluetoothd unregisters them.
        for service in self.services:
            for characteristic in service.characteristics:
                if characteristic.cccd is not None:
                    characteristic.cccd.unexport()
                characteristic.unexport()
                for client in characteristic.notify_clients:
                    self.standin.clients.unwatch(client, characteristic.path)
            service.unexport()
        self.services = []

    def find_characteristic(self, uuid):
        for service in self.services:
            found = service.find(uuid)
            if found is not None:
                return found
        return None

    # -- notifications --

    def send(self, characteristic, payload, tag=None):
        """Queue a notification/indication; a silent device never sends anything."""
        if self.config['silent']:
            log.debug('%s stays silent', self.config['address'])
            return
        self.notifications.push(characteristic, payload, tag)

    def deliver(self, characteristic, payload):
        if not self.connected or not characteristic.on_bus:
            return
        if not characteristic.notifying:
            # The peer only sends on characteristics whose CCCD the client enabled.
            log.info('%s: %s not notifying, payload dropped', self.config['address'],
                     characteristic.path)
            return
        characteristic.deliver(payload)
        self.delivered += 1
        limit = self.config['disconnect_after_notifications']
        if limit is not None and self.delivered >= limit:
            self.drop_link('the device hung up after %d notifications' % self.delivered)

    def racp_write(self, racp, request):
        """A write to the Record Access Control Point: the meter answers with notifications of
        its records on 2A18/2A34 and an indication on the RACP, after the write's reply."""
        measurement = racp.service.find(MEASUREMENT_UUID)
        context = racp.service.find(CONTEXT_UUID)
        if not racp.notifying:
            raise Err.cccd_not_configured()
        if not request:
            raise Err.invalid_args('Invalid Length')
        if request[0] == RACP_REPORT and (measurement is None or not measurement.notifying):
            raise Err.cccd_not_configured()
        if request[0] == RACP_ABORT:
            self.notifications.drop('racp')
        elif self.notifications.pending('racp'):
            # GLS: "Procedure Already In Progress" (ATT 0x80), as bluetoothd words it.
            raise Err.failed('Operation failed with ATT error: 0x80')
        targets = {'measurement': measurement, 'context': context, 'racp': racp}
        # Tagged so an abort can drop them and a new request can see a report still running;
        # an abort's own answer is not a running procedure.
        tag = None if request[0] == RACP_ABORT else 'racp'
        for role, payload in racp_plan(request, self.stored_records):
            if targets[role] is not None:
                self.send(targets[role], payload, tag=tag)

    # -- pairing --

    def _begin_pairing(self, attempt):
        method = self.config['pairing']
        if method == 'none':
            self._finish_pairing(attempt, None)
        elif method == 'refuse':
            self._finish_pairing(attempt, Err.auth_failed())
        else:
            self._ask_agent(attempt, method)

    def _ask_agent(self, attempt, method):
        agent = self.standin.agent_manager.agent_for(attempt.client)
        if agent is None:
            log.info('no agent to ask for pairing %s', self.config['address'])
            self._finish_pairing(attempt, Err.auth_failed())
            return
        if 'passkey' in method:
            member, expected = 'RequestPasskey', int(method['passkey'])
        else:
            member, expected = 'RequestPinCode', str(method['pin'])

        def answered(answer):
            if self.pairing is not attempt:
                return
            right = (int(answer) if member == 'RequestPasskey' else str(answer)) == expected
            log.info('agent answered %s: %s', answer, 'right' if right else 'wrong')
            self._finish_pairing(attempt, None if right else Err.auth_failed())

        def refused(error):
            if self.pairing is attempt:
                log.info('agent refused: %s', error.get_dbus_name())
                self._finish_pairing(attempt, Err.auth_canceled())

        attempt.agent = agent
        attempt.agent_call = self.standin.bus.call_async(
            agent[0], agent[1], AGENT_IFACE, member, 'o', (dbus.ObjectPath(self.path),),
            answered, refused, timeout=AGENT_TIMEOUT_S)

    def _finish_pairing(self, attempt, error):
        if self.pairing is not attempt:
            return
        self.pairing = None
        if error is None:
            self.paired = True
            self.update(DEVICE_IFACE, Paired=dbus_bool(True), Bonded=dbus_bool(True))
            attempt.reply()
        else:
            if attempt.made_link and self.connected:
                # A link made only to pair goes down again when pairing fails.
                self.drop_link('pairing failed')
            self._schedule_removal_if_temporary()
            attempt.error(error)

    # -- org.bluez.Device1 --

    @dbus.service.method(DEVICE_IFACE, in_signature='', out_signature='',
                         async_callbacks=('reply', 'error'))
    def Connect(self, reply, error):
        self.standin.calls.add('Connect', self.path)
        if not self.adapter.powered:
            error(Err.not_ready())
        elif self.connected:
            reply()
        elif self.connect_done is not None:
            error(Err.in_progress())
        else:
            # The reply comes once Connected, the GATT objects and ServicesResolved are out.
            self._start_connecting(lambda failure: error(failure) if failure else reply())

    @dbus.service.method(DEVICE_IFACE, in_signature='', out_signature='')
    def Disconnect(self):
        self.standin.calls.add('Disconnect', self.path)
        if self.connect_done is not None and not self.connected:
            self._abort_connecting()
            return
        if not self.connected:
            raise Err.not_connected()
        self.drop_link('asked by the client')

    @dbus.service.method(DEVICE_IFACE, in_signature='', out_signature='',
                         async_callbacks=('reply', 'error'), sender_keyword='sender')
    def Pair(self, reply, error, sender=None):
        self.standin.calls.add('Pair', self.path)
        if not self.adapter.powered:
            error(Err.not_ready())
            return
        if self.paired:
            error(Err.already_exists())
            return
        if self.pairing is not None or self.connect_done is not None:
            error(Err.in_progress())
            return
        attempt = PairingAttempt(sender, reply, error)
        self.pairing = attempt
        self._cancel_removal()
        if self.connected:
            self._begin_pairing(attempt)
        else:
            # Pairing an LE device brings its link up first, services and all, as in bluetoothd.
            def link_ready(failure):
                if failure is not None:
                    self._finish_pairing(attempt, failure)
                elif self.pairing is attempt:
                    attempt.made_link = True
                    self._begin_pairing(attempt)
            self._start_connecting(link_ready)

    @dbus.service.method(DEVICE_IFACE, in_signature='', out_signature='')
    def CancelPairing(self):
        self.standin.calls.add('CancelPairing', self.path)
        attempt = self.pairing
        if attempt is None:
            raise Err.does_not_exist()
        if attempt.agent_call is not None:
            attempt.agent_call.cancel()
            # Tell the agent its question is void, as bluetoothd does (Agent1.Cancel).
            self.standin.bus.call_async(attempt.agent[0], attempt.agent[1], AGENT_IFACE, 'Cancel',
                                        '', (), lambda *a: None, lambda e: None)
        self._finish_pairing(attempt, Err.auth_canceled())
        if not self.connected:
            self._abort_connecting()

    def set_property(self, interface, name, value):
        if name in ('Trusted', 'Blocked'):
            if not isinstance(value, dbus.Boolean):
                raise Err.invalid_args()
            self.update(DEVICE_IFACE, **{name: dbus_bool(value)})
        elif name == 'Alias':
            alias = str(value) or self.config['name'] or self.config['address'].replace(':', '-')
            self.update(DEVICE_IFACE, Alias=dbus.String(alias))
        else:
            PropertyObject.set_property(self, interface, name, value)


# --------------------------------------------------------------------------------------------
# The control interface for tests
# --------------------------------------------------------------------------------------------

class Control(dbus.service.Object):
    """org.vitalsnap.StandIn1 at /org/vitalsnap/standin: what a test does to the 'radio'."""

    def __init__(self, standin):
        dbus.service.Object.__init__(self, standin.bus, CONTROL_PATH)
        self.standin = standin

    def _device(self, address):
        device = self.standin.device_by_address(str(address))
        if device is None:
            raise control_error('UnknownDevice', 'No device %s in the scenario' % address)
        return device

    @dbus.service.method(CONTROL_IFACE, in_signature='sb', out_signature='')
    def SetAdvertising(self, address, on):
        log.info('control: %s advertising %s', address, 'on' if on else 'off')
        self._device(address).set_advertising(bool(on))

    @dbus.service.method(CONTROL_IFACE, in_signature='sayay', out_signature='', byte_arrays=True)
    def AddStoredRecord(self, address, measurement, context):
        log.info('control: %s stores record %s', address, bytes(measurement).hex())
        self._device(address).stored_records.append((bytes(measurement), bytes(context)))

    @dbus.service.method(CONTROL_IFACE, in_signature='s', out_signature='')
    def DropConnection(self, address):
        self._device(address).drop_link('dropped by the control interface')

    @dbus.service.method(CONTROL_IFACE, in_signature='ssay', out_signature='', byte_arrays=True)
    def SendNotification(self, address, characteristic_uuid, value):
        device = self._device(address)
        characteristic = device.find_characteristic(expand_uuid(characteristic_uuid))
        if characteristic is None:
            raise control_error('UnknownCharacteristic', '%s has no connected characteristic %s'
                                % (address, characteristic_uuid))
        device.send(characteristic, bytes(value))

    @dbus.service.method(CONTROL_IFACE, in_signature='', out_signature='as')
    def Calls(self):
        return dbus_strings(self.standin.calls.entries)

    @dbus.service.method(CONTROL_IFACE, in_signature='', out_signature='')
    def ResetCalls(self):
        self.standin.calls.entries.clear()


# --------------------------------------------------------------------------------------------
# Scenario
# --------------------------------------------------------------------------------------------

class ScenarioError(Exception):
    pass


DEFAULT_TIMING = {
    'advertise_interval': 0.3,
    'temporary_timeout': 1.0,
    'connect_delay': 0.05,
    'connect_timeout': 2.0,
    'notification_interval': 0.01,
}


def _characteristic_config(raw, where):
    flags = [str(f) for f in raw.get('flags', [])]
    unknown = [f for f in flags if f not in CHARACTERISTIC_FLAG_ORDER]
    if unknown:
        raise ScenarioError('%s: unknown flags %s' % (where, unknown))
    return {
        'uuid': expand_uuid(raw['uuid']),
        'flags': sorted(set(flags), key=CHARACTERISTIC_FLAG_ORDER.index),
        'racp': bool(raw.get('racp', False)),
        'on_subscribe': [parse_hex(p) for p in raw.get('on_subscribe', [])],
        'value': parse_hex(raw.get('value', '')),
    }


def _device_config(raw, index):
    where = 'devices[%d]' % index
    address = str(raw.get('address', '')).upper()
    if not re.fullmatch(r'([0-9A-F]{2}:){5}[0-9A-F]{2}', address):
        raise ScenarioError('%s: bad address %r' % (where, raw.get('address')))
    pairing = raw.get('pairing', 'none')
    if not (pairing in ('none', 'refuse')
            or (isinstance(pairing, dict) and ('passkey' in pairing or 'pin' in pairing))):
        raise ScenarioError('%s: pairing must be "none", "refuse", {"passkey": N} or {"pin": S}'
                            % where)
    faults = raw.get('faults') or {}
    if faults.get('connect') not in (None, 'timeout', 'fail'):
        raise ScenarioError('%s: faults.connect must be null, "timeout" or "fail"' % where)
    services = []
    for s_index, service in enumerate(raw.get('services', [])):
        s_where = '%s.services[%d]' % (where, s_index)
        services.append({
            'uuid': expand_uuid(service['uuid']),
            'characteristics': [
                _characteristic_config(c, '%s.characteristics[%d]' % (s_where, c_index))
                for c_index, c in enumerate(service.get('characteristics', []))],
        })
    disconnect_after = faults.get('disconnect_after_notifications')
    return {
        'address': address,
        'address_type': raw.get('address_type', 'public'),
        'name': raw.get('name'),
        'advertising': bool(raw.get('advertising', True)),
        'advertised_uuids': [expand_uuid(u) for u in raw.get('advertised_uuids', [])],
        'rssi': int(raw.get('rssi', -60)),
        'paired': bool(raw.get('paired', False)),
        'pairing': pairing,
        'services': services,
        'stored_records': [(parse_hex(r.get('measurement', '')), parse_hex(r.get('context') or ''))
                           for r in raw.get('stored_records', [])],
        'disconnect_after_notifications':
            None if disconnect_after is None else int(disconnect_after),
        'silent': bool(faults.get('silent', False)),
        'connect_fault': faults.get('connect'),
    }


def load_scenario(path):
    try:
        with open(path) as handle:
            raw = json.load(handle)
        adapter = raw.get('adapter', {})
        timing = dict(DEFAULT_TIMING)
        for key in DEFAULT_TIMING:
            if key in raw:
                timing[key] = float(raw[key])
        devices = [_device_config(d, i) for i, d in enumerate(raw.get('devices', []))]
        addresses = [d['address'] for d in devices]
        if len(set(addresses)) != len(addresses):
            raise ScenarioError('two devices share an address')
        return {
            'adapter': {
                'powered': bool(adapter.get('powered', True)),
                'address': str(adapter.get('address', '00:1A:7D:DA:71:13')).upper(),
                'name': str(adapter.get('name', 'vitalsnap-standin')),
            },
            'timing': timing,
            'devices': devices,
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise ScenarioError('%s: %s' % (path, error))


# --------------------------------------------------------------------------------------------
# Putting it together
# --------------------------------------------------------------------------------------------

class StandIn:
    """Owns the bus connection and every object; objects reach each other through it."""

    def __init__(self, bus, scenario):
        self.bus = bus
        self.timing = scenario['timing']
        self.calls = CallLog()
        self.clients = ClientWatch(bus)
        self.devices = []
        self.object_manager = ObjectManagerRoot(bus)
        self.agent_manager = AgentManager(self)
        self.adapter = Adapter(self, scenario['adapter'])
        self.devices = [Device(self, config) for config in scenario['devices']]
        self.control = Control(self)
        self.agent_manager.export()
        self.adapter.export()
        for device in self.devices:
            device.start()

    def device_by_address(self, address):
        return next((d for d in self.devices if d.config['address'] == address.upper()), None)

    def device_by_path(self, path):
        return next((d for d in self.devices if d.path == path), None)


def main(argv):
    parser = argparse.ArgumentParser(description='A stand-in for bluetoothd on a private bus.')
    parser.add_argument('--address', required=True, help='D-Bus address of the private bus')
    parser.add_argument('--scenario', required=True, help='scenario JSON file')
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format='standin_bluez %(relativeCreated)7.0fms %(message)s')
    try:
        scenario = load_scenario(args.scenario)
    except ScenarioError as error:
        log.error('bad scenario: %s', error)
        return 2

    DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(args.address)
    loop = GLib.MainLoop()

    def stop(*_):
        log.info('stopping')
        loop.quit()
        return GLib.SOURCE_CONTINUE

    GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, stop)
    GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGINT, stop)
    bus.call_on_disconnection(lambda _connection: stop())

    StandIn(bus, scenario)       # every object is exported before the name is taken
    if bus.request_name(BLUEZ_NAME, dbus.bus.NAME_FLAG_DO_NOT_QUEUE) \
            != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
        log.error('could not own %s on %s', BLUEZ_NAME, args.address)
        return 1
    print('READY', flush=True)
    loop.run()
    bus.close()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
