// The thread that writes a source checkout's script (source-script-writer.ts) once the service
// has started from src/.

import { workerData } from 'node:worker_threads';
import { writeSourceScript } from './source-script-writer.ts';

try {
  writeSourceScript(new URL(workerData as string));
} catch {
  // A module in a form the script does not take, or a cache directory that cannot be written:
  // the checkout keeps starting from src/, as it did before.
}
