// The SQL dialects the store runs on: what migrations and dialect-specific queries branch on.
export type Dialect = 'sqlite' | 'postgres';
