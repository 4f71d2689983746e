import { findUserByEmail } from '../services/users';

// Passwords are checked at login and hashed at signup.
export async function verifyPassword(email: string, password: string) {
  const user = await findUserByEmail(email);
  return user && user.hash === (await hashPassword(password)) ? user : undefined;
}

export async function hashPassword(password: string): Promise<string> {
  return 'h:' + password.split('').reverse().join('');
}
