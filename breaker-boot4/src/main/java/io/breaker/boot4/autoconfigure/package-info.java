/**
 * The auto-configuration of this line's health contributors. Internal to the starter; an application may
 * exclude them by class name.
 */
package io.breaker.boot4.autoconfigure;
