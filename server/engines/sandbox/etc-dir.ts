import { execFile } from 'node:child_process';
import {
  accessSync,
  constants,
  lstatSync,
  readlinkSync,
  rmSync,
  statSync,
  type Stats,
} from 'node:fs';
import {
  chmod,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readlink,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  GROUP,
  OCTAVE_SAVE_FIGURES,
  OCTAVE_SITE_INIT,
  PASSWD,
  PYTHON_SITECUSTOMIZE,
} from './support-files';

/**
 * The sandbox's /etc, prepared once per server process and bound read-only into every run
 * (one bind mount instead of one per file).
 *
 * bwrap reads the whole mount table (/proc/self/mountinfo, the host's mounts included) after
 * each bind mount, and each file copied in through a pipe costs the server a pipe; binding the
 * listed /etc entries one by one and copying the support files in took about 1.5 ms of CPU of
 * each run's 10 ms of bwrap on a loaded machine (docs/performance.md, "Code sandbox"). The
 * directory holds copies of those entries, the sandbox's own passwd and group, and the support
 * files under `sandbox/` (reached inside as /opt/sandbox, a symbolic link). Every run sees the
 * same files, none of them user data, and none writable: the bind is read-only.
 *
 * Only what the sandbox user could read in the host's /etc is copied (entries readable by
 * others), so a copy owned by the server's account shows nothing the bind did not.
 */

/**
 * Read-only parts of /etc the runtimes need, and nothing else of it (no passwd, shadow, ssl keys
 * or host configuration): shared-library lookup, Debian's alternatives (BLAS, LAPACK), R's and
 * matplotlib's configuration, fonts and the time zone.
 */
export const ETC_READ_ONLY = [
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/R',
  '/etc/matplotlibrc',
  '/etc/fonts',
  '/etc/localtime',
];

/** The support files' folder inside the prepared /etc. */
export const ETC_SUPPORT_NAME = 'sandbox';

/** Support files by path under the support folder. */
const SUPPORT_FILES: Record<string, string> = {
  'python/sitecustomize.py': PYTHON_SITECUSTOMIZE,
  'octave/siterc.m': OCTAVE_SITE_INIT,
  'octave/econagents_save_open_figures.m': OCTAVE_SAVE_FIGURES,
};

/** How often the host's entries are compared with the copy, at most (a few dozen stat calls). */
const CHECK_INTERVAL_MS = 5000;
/**
 * The copy is made again this often even without a change seen, so files a temp-directory
 * cleaner removed from it come back.
 */
const REBUILD_INTERVAL_MS = 60 * 60 * 1000;
/** An older copy is removed this long after a newer one replaced it (runs starting meanwhile). */
const REMOVE_OLD_AFTER_MS = 60 * 1000;

const readableByOthers = (s: Stats) =>
  s.isDirectory() ? (s.mode & 0o005) === 0o005 : (s.mode & 0o004) !== 0;

/**
 * What a change on the host would alter, for the paths a copy was made from (`tracked`): each
 * one's type, inode, size and modification time, and where a link points. Folders are among
 * them, so an entry added, removed or replaced in one (dpkg and update-alternatives rename into
 * place) changes its folder's time; a file edited in place changes its own.
 */
export function etcSignature(tracked: readonly string[]): string {
  return tracked
    .map((p) => {
      try {
        const s = lstatSync(p);
        const link = s.isSymbolicLink() ? readlinkSync(p) : '';
        return `${p}:${s.mode}:${s.ino}:${s.size}:${s.mtimeMs}:${link}`;
      } catch {
        return `${p}:absent`;
      }
    })
    .join('\n');
}

/**
 * Copies `source` to `dest` as it is (links as links), leaving out what others cannot read, and
 * adds the folders and files it copied from to `tracked`.
 */
async function copyReadable(source: string, dest: string, tracked: string[]): Promise<void> {
  const s = await lstat(source);
  if (s.isSymbolicLink()) {
    await symlink(await readlink(source), dest);
  } else if (s.isDirectory()) {
    if (!readableByOthers(s)) return;
    tracked.push(source);
    await mkdir(dest);
    for (const name of await readdir(source)) {
      await copyReadable(path.join(source, name), path.join(dest, name), tracked);
    }
  } else if (s.isFile() && readableByOthers(s)) {
    tracked.push(source);
    await copyFile(source, dest);
  }
}

/**
 * Makes the tree readable by others (folders 0755, files 0644): the server runs with umask 077,
 * and bwrap runs as another user when the server is root. Links are left alone.
 */
async function openUp(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await openUp(p);
    else if (entry.isFile()) await chmod(p, 0o644);
  }
}

/**
 * Builds the directory under `parent`: the listed entries that exist, passwd, group and the
 * support files. Returns the new directory's path and the host paths to watch for changes
 * (`etcSignature`): the listed entries, present or not, and the folders and files copied.
 * Asynchronous, so the server goes on answering meanwhile (on a busy disk it took seconds).
 */
export async function buildEtcDir(
  parent: string,
  sources: readonly string[] = ETC_READ_ONLY,
): Promise<{ dir: string; tracked: string[] }> {
  const root = await mkdtemp(path.join(parent, `${PREFIX}${process.pid}-`));
  const tracked = [...sources];
  try {
    for (const source of sources) {
      try {
        await lstat(source);
      } catch {
        continue; // absent on this host
      }
      await copyReadable(source, path.join(root, path.basename(source)), tracked);
    }
    await writeFile(path.join(root, 'passwd'), PASSWD);
    await writeFile(path.join(root, 'group'), GROUP);
    for (const [name, content] of Object.entries(SUPPORT_FILES)) {
      const file = path.join(root, ETC_SUPPORT_NAME, name);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
    }
    await openUp(root);
    return { dir: root, tracked };
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    throw err;
  }
}

/** The copies' names: the prefix, the server's pid, a dash and mkdtemp's letters. */
const PREFIX = 'econagents-sandbox-';

/**
 * Removes copies left by server processes that are gone (killed before their exit hook ran).
 * A pid that exists, or belongs to another user (EPERM), keeps its copy.
 */
export async function removeOrphanCopies(parent: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^econagents-sandbox-(\d+)-[A-Za-z0-9]{6}$/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') {
        await rm(path.join(parent, name), { recursive: true, force: true }).catch(() => undefined);
      }
    }
  }
}

/**
 * Where to build: /dev/shm (a tmpfs: on a busy disk the 500 links and files took seconds) or
 * else the temp directory; when the server is root, bwrap runs as another user, so only a place
 * whose every ancestor others can pass through.
 */
function parentDir(asOtherUser: boolean): string {
  const open = (dir: string) => {
    try {
      accessSync(dir, constants.W_OK | constants.X_OK);
      if (!statSync(dir).isDirectory()) return false;
      if (!asOtherUser) return true;
      for (let p = path.resolve(dir); ; p = path.dirname(p)) {
        if ((statSync(p).mode & 0o001) === 0) return false;
        if (p === path.dirname(p)) return true;
      }
    } catch {
      return false;
    }
  };
  return ['/dev/shm', tmpdir()].find(open) ?? tmpdir();
}

/**
 * Compiles sitecustomize.py next to itself (its __pycache__), so a Python run loads the
 * compiled file instead of compiling it again (about 1 ms of CPU per run; runs use -B, so
 * nothing inside writes it). Runs before it exists compile as before.
 */
function compileSitecustomize(root: string): void {
  const file = path.join(root, ETC_SUPPORT_NAME, 'python', 'sitecustomize.py');
  execFile(
    '/usr/bin/python3',
    ['-I', '-c', 'import py_compile, sys; py_compile.compile(sys.argv[1], doraise=True)', file],
    { env: { PATH: '/usr/bin:/bin' }, timeout: 30_000 },
    () => {
      // Without Python there is nothing to run it with; a failure leaves the source only.
      openUp(path.join(path.dirname(file), '__pycache__')).catch(() => undefined);
    },
  );
}

let current: {
  dir: string;
  tracked: string[];
  signature: string;
  builtAt: number;
  checkedAt: number;
} | null = null;
let building: Promise<string> | null = null;
/** Every directory built and not yet removed, removed at exit. */
const built = new Set<string>();
let exitHook = false;

async function rebuild(asOtherUser: boolean): Promise<string> {
  const old = current?.dir;
  const parent = parentDir(asOtherUser);
  if (!old) await removeOrphanCopies(parent);
  const { dir, tracked } = await buildEtcDir(parent);
  const now = Date.now();
  current = { dir, tracked, signature: etcSignature(tracked), builtAt: now, checkedAt: now };
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const d of built) rmSync(d, { recursive: true, force: true });
    });
  }
  built.add(dir);
  compileSitecustomize(dir);
  if (old) {
    setTimeout(() => {
      built.delete(old);
      rmSync(old, { recursive: true, force: true });
    }, REMOVE_OLD_AFTER_MS).unref();
  }
  return dir;
}

/**
 * The prepared /etc's path for a run now: built on first use, and built again when the host's
 * entries changed (checked at most every five seconds), hourly, or when it disappeared. The run
 * that finds it due starts the new copy and uses the one before, unless that disappeared.
 * `asOtherUser`: bwrap runs as another user than the server (the server is root).
 */
export async function sandboxEtcDir(asOtherUser: boolean): Promise<string> {
  const now = Date.now();
  if (current && now - current.checkedAt < CHECK_INTERVAL_MS) return current.dir;
  if (building) return building;
  let present = false;
  if (current) {
    try {
      statSync(path.join(current.dir, 'passwd'));
      present = true;
    } catch {
      // removed from under us: build again
    }
    if (
      present &&
      now - current.builtAt < REBUILD_INTERVAL_MS &&
      etcSignature(current.tracked) === current.signature
    ) {
      current.checkedAt = now;
      return current.dir;
    }
  }
  building = rebuild(asOtherUser).finally(() => {
    building = null;
  });
  return present && current ? current.dir : building;
}
