import { runServer } from './serve';

/** `npm start` / `npm run serve`: the server with the product's teams. */
runServer();
