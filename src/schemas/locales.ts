/** The languages the portal, the widget and the mail speak, each with a complete catalog; English first (the source). */
export const LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'it', 'nl', 'ja', 'zh-CN', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
