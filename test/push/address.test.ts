// The self-address rule of webhooks (src/push/address.ts): which addresses reach the service.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reachesService, resolvedAddressReachesService } from '../../src/push/address.ts';
import type { ServiceAddress } from '../../src/push/address.ts';

const LOOPBACK_SERVICE: ServiceAddress = { baseUrl: 'http://127.0.0.1:8080', host: '127.0.0.1', port: 8080 };

const reaches = (address: string, service: ServiceAddress = LOOPBACK_SERVICE) => reachesService(new URL(address), service);

describe('reachesService', () => {
  it('refuses every loopback and unspecified spelling with the service port', () => {
    const hosts = [
      '127.0.0.1', '127.0.0.2', '127.255.255.254', '127.1', '2130706433', '0x7f.0.0.1', '0177.0.0.1', '017700000001', '127.0.0.1.',
      'localhost', 'LOCALHOST', 'localhost.', 'api.localhost', 'Api.LocalHost.',
      '[::1]', '[0:0:0:0:0:0:0:1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:127.0.0.9]',
      '0.0.0.0', '0', '[::]', '[::ffff:0.0.0.0]',
    ];
    for (const host of hosts) assert.equal(reaches(`http://${host}:8080/__svc/reset`), true, host);
    assert.equal(reaches('HTTP://127.1:8080/x'), true);
  });

  it('allows loopback with another port, where test webhooks listen, and other hosts', () => {
    for (const address of ['http://127.0.0.1:8081/hook', 'http://localhost:9999/', 'http://[::1]:1/', 'https://127.0.0.1/', 'http://127.0.0.1/', 'https://hooks.example.test:8080/', 'http://10.0.0.1:8080/', 'http://localhost.example:8080/']) {
      assert.equal(reaches(address), false, address);
    }
  });

  it('counts the scheme default port when the address names none', () => {
    const onDefaultPort: ServiceAddress = { baseUrl: 'http://127.0.0.1', host: '127.0.0.1', port: 80 };
    assert.equal(reaches('http://localhost/__svc/reset', onDefaultPort), true);
    assert.equal(reaches('http://localhost:80/__svc/reset', onDefaultPort), true);
    assert.equal(reaches('https://localhost/__svc/reset', onDefaultPort), false);
    const onTls: ServiceAddress = { baseUrl: 'https://127.0.0.1', host: '127.0.0.1', port: 443 };
    assert.equal(reaches('https://[::1]/x', onTls), true);
  });

  it('refuses the base URL host with the base URL port or the bound port', () => {
    const behindProxy: ServiceAddress = { baseUrl: 'https://calendar.example.test', host: '127.0.0.1', port: 8080 };
    assert.equal(reaches('https://calendar.example.test/__svc/reset', behindProxy), true);
    assert.equal(reaches('https://CALENDAR.example.test.:443/x', behindProxy), true);
    assert.equal(reaches('http://calendar.example.test:8080/x', behindProxy), true);
    assert.equal(reaches('http://calendar.example.test/x', behindProxy), false);
    assert.equal(reaches('https://other.example.test/x', behindProxy), false);
  });

  it('refuses the bound host with the bound port, in any spelling the URL parser canonicalises', () => {
    const onLan: ServiceAddress = { baseUrl: 'http://192.168.10.5:8080', host: '192.168.10.5', port: 8080 };
    assert.equal(reaches('http://192.168.10.5:8080/x', onLan), true);
    assert.equal(reaches('http://3232238085:8080/x', onLan), true);
    assert.equal(reaches('http://[::ffff:192.168.10.5]:8080/x', onLan), true);
    assert.equal(reaches('http://192.168.10.6:8080/x', onLan), false);
    const named: ServiceAddress = { baseUrl: 'http://127.0.0.1:8080', host: 'Calendar.Internal', port: 8080 };
    assert.equal(reaches('http://calendar.internal.:8080/x', named), true);
    const ipv6: ServiceAddress = { baseUrl: 'http://[fd00::5]:8080', host: 'fd00:0::5', port: 8080 };
    assert.equal(reaches('http://[fd00:0:0:0:0:0:0:5]:8080/x', ipv6), true);
  });

  it('on a wildcard bind (0.0.0.0 or ::), refuses local interface addresses with the bound port', async () => {
    const { networkInterfaces } = await import('node:os');
    const external = Object.values(networkInterfaces()).flat().find((entry) => entry?.family === 'IPv4' && !entry.internal);
    for (const host of ['0.0.0.0', '::']) {
      const everywhere: ServiceAddress = { baseUrl: 'http://127.0.0.1:8080', host, port: 8080 };
      assert.equal(reaches('http://127.0.0.1:8080/x', everywhere), true);
      if (external) {
        assert.equal(reaches(`http://${external.address}:8080/x`, everywhere), true, external.address);
        assert.equal(reaches(`http://${external.address}:8080/x`, LOOPBACK_SERVICE), false);
      }
    }
  });
});

describe('resolvedAddressReachesService', () => {
  it('judges the address a host name resolved to, with the address port', () => {
    assert.equal(resolvedAddressReachesService('127.0.1.1', 8080, LOOPBACK_SERVICE), true);
    assert.equal(resolvedAddressReachesService('::1', 8080, LOOPBACK_SERVICE), true);
    assert.equal(resolvedAddressReachesService('::ffff:127.0.0.1', 8080, LOOPBACK_SERVICE), true);
    assert.equal(resolvedAddressReachesService('127.0.0.1', 8081, LOOPBACK_SERVICE), false);
    assert.equal(resolvedAddressReachesService('203.0.113.7', 8080, LOOPBACK_SERVICE), false);
  });
});
