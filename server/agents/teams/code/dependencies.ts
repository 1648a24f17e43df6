import type { CodeLanguage } from '../../../../common/teams/code';

/**
 * The packages a program uses, read from its import statements (never from the model's own
 * list), for the package's README and requirements file.
 */

/** Python 3.11's standard library (sys.stdlib_module_names without private modules). */
const PYTHON_STDLIB = new Set(
  `
  abc aifc antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb
  binascii bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop
  collections colorsys compileall concurrent configparser contextlib contextvars copy copyreg
  crypt csv ctypes curses dataclasses datetime dbm decimal difflib dis distutils doctest email
  encodings ensurepip enum errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib
  functools gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac
  html http idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword
  lib2to3 linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap
  modulefinder msilib msvcrt multiprocessing netrc nis nntplib nt ntpath nturl2path numbers
  opcode operator optparse os ossaudiodev pathlib pdb pickle pickletools pipes pkgutil
  platform plistlib poplib posix posixpath pprint profile pstats pty pwd py_compile pyclbr
  pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource rlcompleter runpy
  sched secrets select selectors shelve shlex shutil signal site smtpd smtplib sndhdr socket
  socketserver spwd sqlite3 sre_compile sre_constants sre_parse ssl stat statistics string
  stringprep struct subprocess sunau symtable sys sysconfig syslog tabnanny tarfile telnetlib
  tempfile termios textwrap this threading time timeit tkinter token tokenize tomllib trace
  traceback tracemalloc tty turtle turtledemo types typing unicodedata unittest urllib uu uuid
  venv warnings wave weakref webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp
  zipfile zipimport zlib zoneinfo
`
    .trim()
    .split(/\s+/),
);

/** Import names whose package on PyPI is called differently. */
const PYPI_NAMES: Record<string, string> = {
  sklearn: 'scikit-learn',
  yaml: 'PyYAML',
  PIL: 'Pillow',
  bs4: 'beautifulsoup4',
  cv2: 'opencv-python',
  dateutil: 'python-dateutil',
};

/** R's base and recommended-with-R packages that need no installation. */
const R_BASE = new Set([
  'base',
  'stats',
  'utils',
  'graphics',
  'grDevices',
  'methods',
  'datasets',
  'tools',
  'parallel',
  'grid',
  'splines',
  'stats4',
  'compiler',
  'tcltk',
]);

/** Julia's standard library. */
const JULIA_STDLIB = new Set([
  'Base',
  'Core',
  'Test',
  'LinearAlgebra',
  'Statistics',
  'Random',
  'Printf',
  'Dates',
  'DelimitedFiles',
  'SparseArrays',
  'Distributed',
  'Logging',
  'Serialization',
  'SharedArrays',
  'Sockets',
  'UUIDs',
  'Unicode',
  'Markdown',
  'InteractiveUtils',
]);

function unique(names: Iterable<string>): string[] {
  return [...new Set(names)].sort((a, b) => a.localeCompare(b));
}

function pythonImports(code: string): string[] {
  const found: string[] = [];
  for (const line of code.split('\n')) {
    const from = /^\s*from\s+([A-Za-z_][\w.]*)\s+import\b/.exec(line);
    if (from) found.push(from[1]!);
    const plain = /^\s*import\s+(.+)$/.exec(line);
    if (plain) {
      for (const part of plain[1]!.split(',')) {
        const name = /^\s*([A-Za-z_][\w.]*)/.exec(part);
        if (name) found.push(name[1]!);
      }
    }
  }
  return found
    .map((n) => n.split('.')[0]!)
    .filter((n) => !PYTHON_STDLIB.has(n) && n !== 'main' && !n.startsWith('test_'))
    .map((n) => PYPI_NAMES[n] ?? n);
}

function rImports(code: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:library|require)\(\s*["']?([A-Za-z][\w.]*)["']?/g,
    /\brequireNamespace\(\s*["']([A-Za-z][\w.]*)["']/g,
    /\b([A-Za-z][\w.]*):::?[A-Za-z.]/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) found.push(m[1]!);
  return found.filter((n) => !R_BASE.has(n));
}

function juliaImports(code: string): string[] {
  const found: string[] = [];
  for (const m of code.matchAll(/^\s*(?:using|import)\s+([^\n:]+)/gm)) {
    for (const part of m[1]!.split(',')) {
      const name = /^\s*([A-Za-z_]\w*)/.exec(part);
      if (name) found.push(name[1]!);
    }
  }
  return found.filter((n) => !JULIA_STDLIB.has(n));
}

function octavePackages(code: string): string[] {
  return [...code.matchAll(/\bpkg\s+load\s+([\w-]+)/g)].map((m) => `octave-${m[1]!}`);
}

/** The third-party packages `code` (and its tests) import, sorted. */
export function dependenciesOf(language: CodeLanguage, ...sources: string[]): string[] {
  const code = sources.join('\n');
  switch (language) {
    case 'python':
      return unique(pythonImports(code));
    case 'r':
      return unique(rImports(code));
    case 'julia':
      return unique(juliaImports(code));
    case 'matlab':
      return unique(octavePackages(code));
    case 'dynare':
      return unique(['dynare', ...octavePackages(code)]);
  }
}

/** What the program runs on, for the README. */
export const RUNTIME_NAMES: Record<CodeLanguage, string> = {
  python: 'Python 3',
  r: 'R (Rscript)',
  julia: 'Julia',
  matlab: 'MATLAB or GNU Octave',
  dynare: 'Dynare under MATLAB or GNU Octave',
};
