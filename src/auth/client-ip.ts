// The client address as better-auth reads it (rate limits, sessions, the security log).

/** Header the Faultline server sets from the socket (or a trusted proxy); clients cannot forge it. */
export const CLIENT_IP_HEADER = "x-faultline-client-ip";
