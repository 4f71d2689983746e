import { Router } from './http';
import { handleLogin } from '../routes/login';
import { handleLogout } from '../routes/logout';
import { handleSignup } from '../routes/signup';
import { handleProfile } from '../routes/profile';
import { handleOrders } from '../routes/orders';

// mountEndpoints registers every endpoint of the API on the router: login,
// logout, signup, profile and orders.
export function mountEndpoints(router: Router): void {
  router.post('/login', handleLogin);
  router.post('/logout', handleLogout);
  router.post('/signup', handleSignup);
  router.get('/profile', handleProfile);
  router.get('/orders', handleOrders);
}
