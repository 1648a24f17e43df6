import type { FastifyRequest } from 'fastify';
import { currentUser } from '../../platform/access';
import type { SessionActor } from '../types';

/** The signed-in caller of a team route, as the session service's actor. */
export function teamActor(request: FastifyRequest): SessionActor {
  const user = currentUser(request);
  return { id: user.id, role: user.role };
}
