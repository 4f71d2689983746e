// Sessions start at login and end at logout.
const sessions = new Map<string, string>();

export async function startSession(userId: string) {
  const id = Math.random().toString(36).slice(2);
  sessions.set(id, userId);
  return { id, userId };
}

export async function endSession(id: string | undefined): Promise<void> {
  if (id) sessions.delete(id);
}
