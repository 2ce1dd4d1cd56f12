import { describe, expect, it } from 'vitest';
import { PrinterError } from './printer-error';
import { blockedAddressProblem, resolvePrinterHost, tcpTargetProblem } from './tcp-policy';

describe('tcp printer policy', () => {
  it.each(['192.168.1.50', '10.0.0.7', '172.16.4.4', '127.0.0.1', '::1', 'fd12:3456::7', 'printer.local'])(
    'allows %s on a printer port (the shop LAN and this machine)',
    (host) => {
      for (const port of [9100, 9109, 515, 631]) expect(tcpTargetProblem(host, port)).toBeUndefined();
    },
  );

  it.each([
    '169.254.169.254',
    '169.254.170.2',
    'fe80::1',
    'FE80::a9fe:a9fe',
    'fd00:ec2::254',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '100.100.100.200',
    '168.63.129.16',
    '0.0.0.0',
    '224.0.0.1',
    'metadata.google.internal',
    'metadata.google.internal.',
    'Metadata',
    '2852039166',
    '0xa9fea9fe',
    '0251.0376.0251.0376',
    '169.254.43518',
  ])('L6: refuses %s as a printer host', (host) => {
    expect(tcpTargetProblem(host, 9100)).toBeTruthy();
  });

  it('L6: accepts only printer ports unless the organisation lists more', () => {
    expect(tcpTargetProblem('192.168.1.50', 22)).toMatch(/not a printer port/);
    expect(tcpTargetProblem('192.168.1.50', 9110)).toMatch(/printer_extra_ports/);
    expect(tcpTargetProblem('192.168.1.50', 22, [22])).toBeUndefined();
  });

  it('L6: checks what a name resolves to before connecting', async () => {
    expect(await resolvePrinterHost('localhost', 9100)).toContainEqual(
      expect.objectContaining({ family: 4 }),
    );
    expect(blockedAddressProblem('127.0.0.1')).toBeUndefined();
    const refused = await resolvePrinterHost('169.254.169.254', 9100).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PrinterError);
    expect(refused).toMatchObject({ code: 'INVALID_CONFIG', retryable: false });
  });

  it('L6: refuses a name that resolves to a link-local address, even among others', async () => {
    const rebinding = async () => [
      { address: '192.168.1.50', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ];
    const refused = await resolvePrinterHost('printer.example', 9100, [], rebinding).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'INVALID_CONFIG', message: expect.stringMatching(/resolves to/) });
  });
});
