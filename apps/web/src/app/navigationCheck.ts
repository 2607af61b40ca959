/**
 * The access check and the route table it reads, loaded on the first private navigation (their
 * own chunk, with the private routes): the sign-in page's first load carries neither.
 */
export { checkNavigation } from '@pitboss/contract';
