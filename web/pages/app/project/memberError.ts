import { asSentence as sentence } from '../../../../common/text';

/**
 * Turns a failed "add member" reply into a sentence for the field it is about. The server names
 * the field first ("email: no approved account uses this e-mail address"), which reads like a
 * log line; the person typing needs to know what to do instead.
 */
export interface MemberError {
  field: 'email' | 'role' | undefined;
  text: string;
}

export const UNKNOWN_MEMBER_TEXT =
  'No approved account uses this e-mail address. Check the spelling, or ask your colleague to ' +
  "register and wait for an administrator's approval.";

export function memberErrorOf(error: Error & { status?: number }): MemberError {
  const message = error.message;
  if (error.status === 404 && /^email:/i.test(message)) {
    return { field: 'email', text: UNKNOWN_MEMBER_TEXT };
  }
  if (/e-mail address/i.test(message) && /valid/i.test(message)) {
    return { field: 'email', text: 'Enter a valid e-mail address, e.g. name@university.edu.' };
  }
  const named = /^(?:Invalid request[^:]*:\s*)?(email|role)(?::\s*|\s+)(.+)$/i.exec(message);
  if (named?.[1] && named[2]) {
    const field = named[1].toLowerCase() === 'role' ? 'role' : 'email';
    return { field, text: sentence(named[2]) };
  }
  return { field: undefined, text: message };
}
