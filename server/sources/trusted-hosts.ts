/**
 * The trusted list of academic and institutional hosts (docs/product-rules.md). A link to a work
 * is shown only when its host is one of these or a subdomain of one; anything else (link farms,
 * shorteners, mirrors of unknown standing) is dropped and the work keeps its DOI link instead.
 */

/** Registries, indexes and preprint servers. */
const INDEXES = [
  'doi.org',
  'openalex.org',
  'crossref.org',
  'arxiv.org',
  'semanticscholar.org',
  'ssrn.com',
  'repec.org',
  'nber.org',
  'jstor.org',
  'europepmc.org',
  'ncbi.nlm.nih.gov',
  'scholar.archive.org',
  'hal.science',
  'archives-ouvertes.fr',
  'zenodo.org',
  'osf.io',
  'econstor.eu',
  'cepr.org',
  'iza.org',
];

/** Publishers of peer-reviewed journals and university presses. */
const PUBLISHERS = [
  'aeaweb.org',
  'econometricsociety.org',
  'sciencedirect.com',
  'elsevier.com',
  'springer.com',
  'springeropen.com',
  'nature.com',
  'wiley.com',
  'tandfonline.com',
  'oup.com',
  'cambridge.org',
  'uchicago.edu',
  'mit.edu',
  'sagepub.com',
  'emerald.com',
  'degruyter.com',
  'science.org',
  'pnas.org',
  'plos.org',
  'mdpi.com',
  'frontiersin.org',
  'bmj.com',
  'thelancet.com',
  'annualreviews.org',
  'informs.org',
  'ieee.org',
  'acm.org',
  'royalsocietypublishing.org',
  'biomedcentral.com',
];

/** International organisations, central banks and statistical offices. */
const INSTITUTIONS = [
  'worldbank.org',
  'imf.org',
  'oecd.org',
  'oecd-ilibrary.org',
  'bis.org',
  'ecb.europa.eu',
  'europa.eu',
  'un.org',
  'unctad.org',
  'wto.org',
  'ilo.org',
  'federalreserve.gov',
  'newyorkfed.org',
  'stlouisfed.org',
  'bankofengland.co.uk',
  'bundesbank.de',
  'banque-france.fr',
  'iadb.org',
  'adb.org',
  'afdb.org',
  'brookings.edu',
];

export const TRUSTED_HOSTS: readonly string[] = [...INDEXES, ...PUBLISHERS, ...INSTITUTIONS];

/** Top-level patterns of universities and governments: *.edu, *.ac.uk, *.edu.au, *.gov, *.gov.uk. */
const INSTITUTIONAL_SUFFIX = /\.(edu|gov)(\.[a-z]{2})?$|\.ac\.[a-z]{2}$/;

/** True when `host` is a trusted host or a subdomain of one. */
export function isTrustedHost(host: string, extra: readonly string[] = []): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (INSTITUTIONAL_SUFFIX.test(h)) return true;
  return [...TRUSTED_HOSTS, ...extra].some((t) => h === t || h.endsWith(`.${t}`));
}

/** The URL when it is http(s) on a trusted host, else undefined. */
export function trustedUrl(
  raw: string | null | undefined,
  extra: readonly string[] = [],
): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password) return undefined;
  return isTrustedHost(url.hostname, extra) ? url.toString() : undefined;
}

/** The first trusted link among candidates, falling back to the DOI resolver. */
export function bestLink(
  candidates: readonly (string | null | undefined)[],
  doi?: string,
): string | undefined {
  for (const c of candidates) {
    const ok = trustedUrl(c);
    if (ok) return ok;
  }
  return doi ? `https://doi.org/${doi}` : undefined;
}
