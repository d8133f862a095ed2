// The portal's answers: the sites' shared ones (h3/pages.ts), every one with the same security headers.
export { cspFor, htmlResponse, jsonResponse, respond, seeOther } from '../../h3/index.js';
