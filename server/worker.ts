import { runWorker } from './worker-process';

/** `npm run worker`: a worker-only process with the product's teams. */
runWorker();
