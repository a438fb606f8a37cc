/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/react" />

/** The build's id (vite.config.ts): MARQUEE_BUILD_ID or the build time. */
declare const __MARQUEE_BUILD__: string;
