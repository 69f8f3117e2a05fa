// What both live Durable Objects (a conversation's room, a person's channel) do with a
// hibernating socket that closes, fails or is written to as it goes.

/** Closes a socket, which may already be closed (by the runtime's automatic reply) or gone. */
export function closeSocket(socket: WebSocket, code: number, reason: string): void {
  try {
    socket.close(code, reason);
  } catch {
    // Already closed.
  }
}

/** Sends a frame; false when the socket was closing (its tab catches up when it reconnects). */
export function sendFrame<Frame>(socket: WebSocket, frame: Frame): boolean {
  try {
    socket.send(JSON.stringify(frame));
    return true;
  } catch {
    return false;
  }
}
