import { describe, expect, it } from 'vitest';
import { deviceGlobProblem, devicePathProblem } from './device-path';

describe('devicePathProblem: which names a printer or serial link may open', () => {
  it.each([
    ['device', '/dev/usb/lp0'],
    ['device', '/dev/lp1'],
    ['device', '/dev/ttyUSB0'],
    ['device', 'LPT1'],
    ['serial', '/dev/ttyACM12'],
    ['serial', '/dev/ttyS0'],
    ['serial', '/dev/serial/by-id/usb-Prolific_Technology_Inc._USB-Serial-if00-port0'],
    ['serial', '/dev/serial/by-path/pci-0000:00:14.0-usb-0:1:1.0-port0'],
    ['serial', '/dev/cu.usbserial-1410'],
    ['serial', 'COM3'],
  ] as const)('accepts a %s at %s', (kind, path) => {
    expect(devicePathProblem(kind, path)).toBeUndefined();
  });

  it.each([
    '/dev/fd/27',
    '/dev/stderr',
    '/dev/stdout',
    '/dev/null',
    '/dev/zero',
    '/dev/shm/x',
    '/dev/sda',
    '/dev/tty',
    '/dev/pts/3',
    '/dev/usb/lp0x',
    '/dev/usb/../fd/3',
    '/dev//usb/lp0',
    '/tmp/printer',
    '/proc/self/fd/27',
    'pharmacy.db',
    'COM0',
    '',
  ])('C1: refuses %s for both kinds', (path) => {
    expect(devicePathProblem('device', path)).toMatch(/must name/);
    expect(devicePathProblem('serial', path)).toMatch(/must name/);
  });

  it('a serial link is never a line printer node', () => {
    expect(devicePathProblem('serial', '/dev/usb/lp0')).toMatch(/serial port/);
    expect(devicePathProblem('serial', 'LPT1')).toMatch(/serial port/);
  });

  it('accepts an operator glob such as /dev/pts/*, but never for descriptors or streams', () => {
    expect(devicePathProblem('device', '/dev/pts/3', ['/dev/pts/*'])).toBeUndefined();
    expect(devicePathProblem('serial', '/dev/pts/3', ['/dev/pts/*'])).toBeUndefined();
    expect(devicePathProblem('device', '/dev/fd/3', ['/dev/fd/*'])).toMatch(/must name/);
    expect(devicePathProblem('device', '/dev/null', ['/dev/*'])).toMatch(/must name/);
  });
});

describe('deviceGlobProblem: the start-up check of PRINTER_DEVICE_ALLOW', () => {
  it.each(['/dev/pts/*', '/dev/ttyAMA?', '/dev/ttyAMA*', '/dev/rfcomm0'])('accepts %s', (glob) => {
    expect(deviceGlobProblem(glob)).toBeUndefined();
  });
  it.each([
    '/dev/*',
    '/dev/fd/*',
    '/dev/std*',
    '/dev/shm/*',
    '/dev/shm*',
    '/dev/s*',
    '/dev/tty*',
    '/dev/n*',
    '/dev/*/lp0',
    '/dev/../tmp/*',
    '/tmp/*',
    'pts/*',
    '/dev/',
  ])('refuses %s', (glob) => {
    expect(deviceGlobProblem(glob)).toBeTruthy();
  });
});
