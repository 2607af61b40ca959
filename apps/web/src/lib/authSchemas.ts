/** The public pages' schemas; loaded through `schemaLoaders` so zod stays out of the sign-in page's first load. */
export { forgotPasswordBody, loginBody, resetPasswordBody } from '@pitboss/contract';
