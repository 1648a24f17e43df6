import { CONTACT_EMAIL } from '../../../common/constants';

/** A mailto: draft to the contact address; the body lists the fields, one per line. */
export function mailtoDraft(
  subject: string,
  fields: Array<[label: string, value: string]>,
): string {
  const body = fields
    .filter(([, value]) => value.trim() !== '')
    .map(([label, value]) => `${label}: ${value.trim()}`)
    .join('\n\n');
  const params = [`subject=${encodeURIComponent(subject)}`];
  if (body) params.push(`body=${encodeURIComponent(body)}`);
  return `mailto:${CONTACT_EMAIL}?${params.join('&')}`;
}
