import { readdirSync, readFileSync } from 'node:fs';

/**
 * The memory of a whole run: every process bwrap started, however many, counted together. The
 * per-process address-space rlimit alone let four children hold 3.2 GB under a 1 GiB limit.
 *
 * A memory cgroup would be the kernel's own way to do this, but the hosts this runs on (and CI)
 * mount the memory controller on cgroup v1 under the host's own management, leaving the v2
 * hierarchy without it, so the server watches instead: a few times a second it adds up the
 * proportional set size (Pss: pages shared between processes split among them, so a forked
 * child's copy-on-write pages are not counted twice) of every process in the run's tree and kills
 * the run once the sum passes the limit. Every process of the sandbox descends from bwrap: the
 * sandbox has its own PID namespace, whose orphans are adopted by its init, itself a child of
 * bwrap, so walking children from bwrap's pid finds them all.
 */

/** The pids of `root` and every process below it, from /proc/<pid>/task/<tid>/children. */
export function processTree(root: number): number[] {
  const seen = new Set<number>([root]);
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited meanwhile
    }
    for (const tid of tasks) {
      let children: string;
      try {
        children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'latin1');
      } catch {
        continue;
      }
      for (const word of children.split(' ')) {
        const child = Number(word);
        if (word !== '' && Number.isInteger(child) && !seen.has(child)) {
          seen.add(child);
          queue.push(child);
        }
      }
    }
  }
  return [...seen];
}

const PSS = /^Pss:\s+(\d+) kB$/m;
/** Code runs on x86_64 only (see seccomp.ts), whose pages are 4 KiB. */
const PAGE_BYTES = 4096;

/** One process's resident set in bytes (0 for a process that is gone): cheap to read. */
export function processResidentBytes(pid: number): number {
  try {
    const resident = readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1];
    return resident === undefined ? 0 : Number(resident) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

/**
 * One process's proportional set size in bytes, its share of the pages it holds; the resident
 * set where smaps_rollup cannot be read. Costs a walk of the process's page tables.
 */
export function processPssBytes(pid: number): number {
  try {
    const kb = PSS.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1'))?.[1];
    if (kb !== undefined) return Number(kb) * 1024;
  } catch {
    // fall back to the resident set
  }
  return processResidentBytes(pid);
}

/**
 * The memory of `root`'s whole tree, in bytes: the sum of Pss. The resident sets are summed
 * first, and as no process's Pss exceeds its resident set, a tree whose resident sum is within
 * `limitBytes` is within it: the dearer Pss is read only past that point.
 */
export function treeMemoryBytes(root: number, limitBytes = 0): number {
  const pids = processTree(root);
  let resident = 0;
  for (const pid of pids) resident += processResidentBytes(pid);
  if (resident <= limitBytes) return resident;
  let pss = 0;
  for (const pid of pids) pss += processPssBytes(pid);
  return pss;
}

export interface MemoryWatch {
  /** Stops watching; returns the largest total seen, in bytes. */
  stop(): number;
}

/**
 * Checks the tree under `root` every `intervalMs` and calls `onExceeded` once when its memory
 * passes `limitBytes` (the peak it reports is of resident sets while under the limit). The per-process address-space limit bounds how far one process can go
 * between two checks.
 */
export function watchRunMemory(
  root: number,
  limitBytes: number,
  onExceeded: (bytes: number) => void,
  intervalMs = 100,
): MemoryWatch {
  let peak = 0;
  let fired = false;
  const timer = setInterval(() => {
    const bytes = treeMemoryBytes(root, limitBytes);
    peak = Math.max(peak, bytes);
    if (bytes > limitBytes && !fired) {
      fired = true;
      clearInterval(timer);
      onExceeded(bytes);
    }
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
