import { z } from 'zod';
import {
  DISPLAY_NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  REASON_MAX,
  USER_ROLES,
  USER_STATUSES,
} from './constants';

/** Emails are compared trimmed and lower-cased everywhere. */
export const emailSchema = z
  .string({ message: 'email is required' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'email must be a valid e-mail address' }));

export const passwordSchema = z
  .string({ message: 'password is required' })
  .min(PASSWORD_MIN, { message: `password must be at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { message: `password must be at most ${PASSWORD_MAX} characters` });

export const displayNameSchema = z
  .string({ message: 'displayName is required' })
  .trim()
  .min(1, { message: 'displayName is required' })
  .max(DISPLAY_NAME_MAX, { message: `displayName must be at most ${DISPLAY_NAME_MAX} characters` });

export const registerRequestSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  displayName: displayNameSchema,
  // Optional: a form with an empty field may send '' or null; both mean no reason.
  reason: z
    .string({ message: 'reason must be text' })
    .trim()
    .max(REASON_MAX, { message: `reason must be at most ${REASON_MAX} characters` })
    .nullish(),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const loginRequestSchema = z.object({
  email: z
    .string({ message: 'email is required' })
    .trim()
    .toLowerCase()
    .min(1, 'email is required'),
  password: z.string({ message: 'password is required' }).min(1, 'password is required'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const refreshRequestSchema = z.object({
  refreshToken: z
    .string({ message: 'refreshToken is required' })
    .min(1, 'refreshToken is required'),
});
export type RefreshRequest = z.infer<typeof refreshRequestSchema>;

export const tokensSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type Tokens = z.infer<typeof tokensSchema>;

export const userRoleSchema = z.enum(USER_ROLES);
export const userStatusSchema = z.enum(USER_STATUSES);

/** What the login reply and the shell know about the signed-in user. */
export const sessionUserSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  email: z.string(),
  role: userRoleSchema,
  status: userStatusSchema,
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** A user account as the API returns it. Never carries a password hash. */
export const userSchema = sessionUserSchema.extend({
  reason: z.string().nullable(),
  /** An administrator suspended the (approved) account: it cannot sign in until lifted. */
  suspended: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const loginReplySchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ tokens: tokensSchema, user: sessionUserSchema }),
});
export type LoginReply = z.infer<typeof loginReplySchema>;

export const refreshReplySchema = z.object({
  success: z.literal(true),
  data: z.object({ tokens: tokensSchema }),
});
export type RefreshReply = z.infer<typeof refreshReplySchema>;

export const profileReplySchema = z.object({
  success: z.literal(true),
  data: z.object({ user: userSchema }),
});
export type ProfileReply = z.infer<typeof profileReplySchema>;

export const usersReplySchema = z.object({
  success: z.literal(true),
  data: z.object({ users: z.array(userSchema), total: z.number() }),
});
export type UsersReply = z.infer<typeof usersReplySchema>;

export const updateUserStatusRequestSchema = z.object({
  status: z.enum(['approved', 'rejected'], { message: 'status must be approved or rejected' }),
});
export type UpdateUserStatusRequest = z.infer<typeof updateUserStatusRequestSchema>;

/** PUT /api/auth/users/{id}/suspension (admin): suspend an approved account, or lift it. */
export const suspendUserRequestSchema = z.object({
  suspended: z.boolean({ message: 'suspended must be true or false' }),
});
export type SuspendUserRequest = z.infer<typeof suspendUserRequestSchema>;

export const updateUserRequestSchema = z
  .object({
    displayName: displayNameSchema.optional(),
    role: userRoleSchema.optional(),
    // The admin screen shows the email read-only. A form may send it back unchanged; the
    // service refuses a different one ('email cannot be changed').
    email: z.string({ message: 'email cannot be changed' }).optional(),
  })
  .refine((v) => v.displayName !== undefined || v.role !== undefined, {
    message: 'nothing to update: send displayName or role',
  });
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;

export const userReplySchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ user: userSchema }),
});
export type UserReply = z.infer<typeof userReplySchema>;

/** POST /api/auth/users/{id}/password (admin): a new password for someone who lost theirs. */
export const setUserPasswordRequestSchema = z.object({ newPassword: passwordSchema });
export type SetUserPasswordRequest = z.infer<typeof setUserPasswordRequestSchema>;

export const changePasswordRequestSchema = z.object({
  currentPassword: z.string().min(1, 'currentPassword is required'),
  newPassword: passwordSchema,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;
