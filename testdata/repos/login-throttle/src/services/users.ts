// The users a login endpoint checks against.
const users = new Map<string, { id: string; email: string; hash: string }>();

export async function createUser(email: string, hash: string) {
  const user = { id: String(users.size + 1), email, hash };
  users.set(user.id, user);
  return user;
}

export async function findUser(id: string | undefined) {
  return id ? users.get(id) : undefined;
}

export async function findUserByEmail(email: string) {
  return [...users.values()].find((u) => u.email === email);
}
