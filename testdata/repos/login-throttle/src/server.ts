import { mountEndpoints } from './api/endpoints';
import { Router } from './api/http';

// startServer mounts the endpoints and listens.
export function startServer(router: Router): void {
  mountEndpoints(router);
}
