/// <reference types="vite/client" />
import type { Api } from '../../shared/contract';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in a browser tab (the WebSocket api is used then). */
    api?: Api;
    /** Test hook installed by the WebSocket api only: the e2e suite cuts the connection with it. */
    __switchboardDebug?: { dropSocket(): void };
  }
}

export {};
