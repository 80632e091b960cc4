package dev.meshbench.acmeair.customer;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.bson.Document;

/**
 * A customer as the API returns it (Acmeair's field names; the password is never returned).
 */
public record Customer(@JsonProperty("_id") String id, String status, @JsonProperty("total_miles") long totalMiles,
        @JsonProperty("miles_ytd") long milesYtd, Address address, String phoneNumber, String phoneNumberType) {

    /** Acmeair's address fields. */
    public record Address(String streetAddress1, String streetAddress2, String city, String stateProvince, String country,
            String postalCode) {

        Document toDocument() {
            Document d = new Document("streetAddress1", streetAddress1);
            if (streetAddress2 != null) {
                d.append("streetAddress2", streetAddress2);
            }
            return d.append("city", city).append("stateProvince", stateProvince).append("country", country)
                    .append("postalCode", postalCode);
        }

        static Address from(Document d) {
            if (d == null) {
                return null;
            }
            return new Address(d.getString("streetAddress1"), d.getString("streetAddress2"), d.getString("city"),
                    d.getString("stateProvince"), d.getString("country"), d.getString("postalCode"));
        }
    }

    static Customer from(Document d) {
        return new Customer(d.getString("_id"), d.getString("status"), number(d, "total_miles"), number(d, "miles_ytd"),
                Address.from(d.get("address", Document.class)), d.getString("phoneNumber"), d.getString("phoneNumberType"));
    }

    /** A numeric field as a long; 0 when it is absent or not a number. */
    static long number(Document d, String key) {
        Object v = d.get(key);
        return v instanceof Number n ? n.longValue() : 0L;
    }
}
