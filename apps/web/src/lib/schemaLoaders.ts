/**
 * Contract schemas of the public pages, loaded when a form is first
 * submitted: zod is not part of the JavaScript the sign-in page needs to show.
 */
export const loadLoginSchema = () => import('./authSchemas').then((m) => m.loginBody);
export const loadForgotPasswordSchema = () => import('./authSchemas').then((m) => m.forgotPasswordBody);
export const loadResetPasswordSchema = () => import('./authSchemas').then((m) => m.resetPasswordBody);
