// read_url's DNS lookup on the desktop (issue 52): the address the connection is made to is the one
// checked. read_url checks a name's addresses before each request, but a fetch that resolves the name
// again may get another answer (DNS rebinding: public first, 127.0.0.1 a moment later). Given to the
// HTTP agent as its `lookup`, this resolves once per connection, refuses a private address there, and
// hands the checked addresses to the socket, which connects to nothing else.

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { PrivateAddressError, isPrivateAddress, privateRefusal } from '../core/tools';

/** Resolves a name to all its addresses (dns.lookup's `all`); a test gives its own. */
export type Resolver = (host: string, family: number, callback: (err: Error | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (host, family, callback) => dnsLookup(host, { all: true, family, verbatim: true }, callback);

/** A socket `lookup` that refuses a name resolving to a private address (unless `allowPrivate`). */
export function checkedLookup(allowPrivate: boolean, resolve: Resolver = systemResolver): LookupFunction {
  return (host, options, callback) => {
    resolve(host, options.family === 4 || options.family === 6 ? options.family : 0, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const inside = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
      if (inside) return callback(new PrivateAddressError(privateRefusal(host, inside.address)), '', 0);
      if (!addresses.length) return callback(Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' }), '', 0);
      // Node asks for all addresses when it tries them in turn (autoSelectFamily), else for one.
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
