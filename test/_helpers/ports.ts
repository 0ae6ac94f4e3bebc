// A free TCP port, for a service whose --base-url must name its port before it starts.

import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A port nothing listens on right now (the OS hands out a fresh one for port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
