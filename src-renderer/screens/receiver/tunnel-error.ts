// ngrok's error text said in words a person acts on. ngrok's own text stays visible in
// small print beside it; these only pick the first thing to do.

export interface TunnelErrorWords {
  /** What happened and what to do, in plain words. */
  words: string;
  /** The authtoken is the problem: offer to clear it. */
  badToken: boolean;
}

const RULES: { test: RegExp; words: string; badToken: boolean }[] = [
  {
    test: /ERR_NGROK_10[57]|authtoken|authentication failed|invalid.*token|token.*invalid/i,
    words:
      'ngrok refused the authtoken: it is mistyped, revoked or from another account. Clear it and paste the one from dashboard.ngrok.com.',
    badToken: true,
  },
  {
    test: /ERR_NGROK_108|simultaneous|session limit/i,
    words: 'This ngrok account already has a tunnel open elsewhere (the free plan allows one). Stop the other one, then start again.',
    badToken: false,
  },
  {
    test: /timed? ?out|did not answer|deadline/i,
    words: 'ngrok did not answer in time. Check this machine’s internet connection (or a proxy or firewall), then start again.',
    badToken: false,
  },
  {
    test: /dial|ENOTFOUND|EAI_AGAIN|getaddrinfo|dns|refused|unreachable|network|connect/i,
    words: 'Could not reach ngrok: this machine seems to be offline, or a proxy or firewall blocks it. The local URL still works.',
    badToken: false,
  },
];

export function tunnelErrorWords(message: string | undefined): TunnelErrorWords {
  const rule = message ? RULES.find((r) => r.test.test(message)) : undefined;
  return rule
    ? { words: rule.words, badToken: rule.badToken }
    : { words: 'The tunnel could not connect. The local URL still works; ngrok’s own words are below.', badToken: false };
}
