/**
 * What the server's operator configures for the integrations (engine option `integrations`, `serve`'s environment):
 * each service's API address (GitHub Enterprise's, or a local fake in tests) and the OAuth apps a workspace connects
 * through. A workspace's own credentials (an API key, a token, a GitHub App's key) are the team's, kept sealed per
 * connection.
 */
export interface IntegrationsOptions {
  linear?: {
    /** Linear's GraphQL endpoint (`https://api.linear.app/graphql`). */
    apiUrl?: string;
    /** An OAuth 2 application (Linear → Settings → API → OAuth applications): connecting by "Connect with Linear". */
    oauth?: OAuthApp & { authorizeUrl?: string; tokenUrl?: string };
  };
  github?: {
    /** GitHub's REST API (`https://api.github.com`); a connection may name its GitHub Enterprise Server's own. */
    apiUrl?: string;
  };
  slack?: {
    /** Slack's Web API (`https://slack.com/api`). */
    apiUrl?: string;
    /** The addresses incoming-webhook URLs must start with (`https://hooks.slack.com/`). */
    hooksUrl?: string;
    /** A Slack app for "Add to Slack" (OAuth v2): its client id and secret, and its signing secret. */
    oauth?: OAuthApp & { signingSecret: string; authorizeUrl?: string };
  };
  /** Each outbound call's time-out (10 s). */
  timeoutMs?: number;
}

interface OAuthApp {
  clientId: string;
  clientSecret: string;
}

/** The options with every address filled in. */
export interface IntegrationsConfig {
  linear: { apiUrl: string; oauth?: OAuthApp & { authorizeUrl: string; tokenUrl: string } };
  github: { apiUrl: string };
  slack: { apiUrl: string; hooksUrl: string; oauth?: OAuthApp & { signingSecret: string; authorizeUrl: string } };
  timeoutMs: number;
}

export function integrationsConfig(options: IntegrationsOptions = {}): IntegrationsConfig {
  const linearOAuth = options.linear?.oauth;
  const slackOAuth = options.slack?.oauth;
  return {
    linear: {
      apiUrl: options.linear?.apiUrl ?? 'https://api.linear.app/graphql',
      ...(linearOAuth
        ? {
            oauth: {
              ...linearOAuth,
              authorizeUrl: linearOAuth.authorizeUrl ?? 'https://linear.app/oauth/authorize',
              tokenUrl: linearOAuth.tokenUrl ?? 'https://api.linear.app/oauth/token',
            },
          }
        : {}),
    },
    github: { apiUrl: (options.github?.apiUrl ?? 'https://api.github.com').replace(/\/+$/, '') },
    slack: {
      apiUrl: (options.slack?.apiUrl ?? 'https://slack.com/api').replace(/\/+$/, ''),
      hooksUrl: options.slack?.hooksUrl ?? 'https://hooks.slack.com/',
      ...(slackOAuth
        ? { oauth: { ...slackOAuth, authorizeUrl: slackOAuth.authorizeUrl ?? 'https://slack.com/oauth/v2/authorize' } }
        : {}),
    },
    timeoutMs: options.timeoutMs ?? 10_000,
  };
}
